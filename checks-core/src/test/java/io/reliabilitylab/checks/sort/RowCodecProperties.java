package io.reliabilitylab.checks.sort;

import static org.assertj.core.api.Assertions.assertThat;

import io.reliabilitylab.spi.data.ChangeEvent;
import io.reliabilitylab.spi.data.ChangeOp;
import io.reliabilitylab.spi.data.Column;
import io.reliabilitylab.spi.data.ColumnType;
import io.reliabilitylab.spi.data.Row;
import io.reliabilitylab.spi.data.RowKey;
import io.reliabilitylab.spi.data.SourcePosition;
import io.reliabilitylab.spi.data.TableSchema;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

class RowCodecProperties {

  static final TableSchema ALL_TYPES =
      new TableSchema(
          "all_types",
          List.of(
              new Column("name", ColumnType.VARCHAR),
              new Column("id", ColumnType.BIGINT),
              new Column("small", ColumnType.INT),
              new Column("flag", ColumnType.BOOLEAN),
              new Column("ratio", ColumnType.DOUBLE),
              new Column("price", ColumnType.DECIMAL),
              new Column("at", ColumnType.TIMESTAMP),
              new Column("event_id", ColumnType.BIGINT)),
          List.of("name", "id"),
          "event_id");

  @Provide
  Arbitrary<Row> rows() {
    Arbitrary<String> text = Arbitraries.strings().ofMaxLength(12);
    Arbitrary<Long> longs = Arbitraries.longs();
    Arbitrary<Integer> ints = Arbitraries.integers().injectNull(0.2);
    Arbitrary<Boolean> flags = Arbitraries.of(true, false).injectNull(0.2);
    Arbitrary<Double> doubles = Arbitraries.doubles().injectNull(0.2);
    Arbitrary<BigDecimal> decimals =
        Arbitraries.bigDecimals()
            .ofScale(4)
            .between(BigDecimal.valueOf(-1e9), BigDecimal.valueOf(1e9))
            .injectNull(0.2);
    Arbitrary<Instant> instants =
        Arbitraries.longs()
            .between(-10_000_000_000L, 10_000_000_000L)
            .map(micros -> Instant.EPOCH.plusNanos(micros * 1000))
            .injectNull(0.2);
    return Combinators.combine(
            text, longs, ints, flags, doubles, decimals, instants, longs.injectNull(0.2))
        .as(
            (name, id, small, flag, ratio, price, at, eventId) ->
                new Row(
                    ALL_TYPES, Arrays.asList(name, id, small, flag, ratio, price, at, eventId)));
  }

  @Property
  void rowsSurviveTheSpillFormat(@ForAll("rows") Row row) throws IOException {
    RowCodec codec = RowCodec.of(ALL_TYPES);
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    codec.write(new DataOutputStream(bytes), row);
    codec.write(new DataOutputStream(bytes), row);

    DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes.toByteArray()));
    assertThat(codec.read(in)).isEqualTo(row);
    assertThat(codec.read(in)).isEqualTo(row);
  }

  @Property
  void eventsSurviveTheSpillFormat(
      @ForAll("rows") Row row, @ForAll ChangeOp op, @ForAll long eventId, @ForAll boolean withGtid)
      throws IOException {
    Long before =
        switch (op) {
          case READ, CREATE -> null;
          case UPDATE -> eventId - 1;
          case DELETE -> eventId;
        };
    ChangeEvent event =
        new ChangeEvent(
            op,
            eventId,
            before,
            row,
            new SourcePosition("mysql-bin.000003", 4711, 2, withGtid ? "0-1-99" : null),
            Instant.parse("2026-03-01T10:00:00.123456Z"));
    ChangeEventCodec codec = ChangeEventCodec.of(ALL_TYPES);
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    codec.write(new DataOutputStream(bytes), event);

    ChangeEvent read =
        codec.read(new DataInputStream(new ByteArrayInputStream(bytes.toByteArray())));
    assertThat(read).isEqualTo(event);
  }

  @Property
  void keyOrderAgreesWithRowKey(@ForAll("rows") Row a, @ForAll("rows") Row b) {
    int ordering = Integer.signum(Orderings.rowsByKey(ALL_TYPES).compare(a, b));
    RowKey ka = a.key();
    RowKey kb = b.key();
    assertThat(ordering).isEqualTo(Integer.signum(ka.compareTo(kb)));
  }
}
