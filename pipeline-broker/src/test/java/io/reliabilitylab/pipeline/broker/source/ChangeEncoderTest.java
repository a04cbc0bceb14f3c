package io.reliabilitylab.pipeline.broker.source;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.reliabilitylab.spi.data.ChangeOp;
import io.reliabilitylab.spi.data.SourcePosition;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.source.SourceRecord;
import org.junit.jupiter.api.Test;

class ChangeEncoderTest {

  private static final String TOPIC = "lab.lab.orders";
  private static final Schema KEY =
      SchemaBuilder.struct()
          .name("lab.lab.orders.Key")
          .field("order_id", Schema.INT64_SCHEMA)
          .build();
  private static final Schema ROW =
      SchemaBuilder.struct()
          .name("lab.lab.orders.Value")
          .optional()
          .field("order_id", Schema.INT64_SCHEMA)
          .field("status", Schema.STRING_SCHEMA)
          .build();
  private static final Schema SOURCE =
      SchemaBuilder.struct()
          .name("io.debezium.connector.mariadb.Source")
          .field("snapshot", Schema.OPTIONAL_STRING_SCHEMA)
          .field("gtid", Schema.OPTIONAL_STRING_SCHEMA)
          .field("file", Schema.STRING_SCHEMA)
          .field("pos", Schema.INT64_SCHEMA)
          .field("row", Schema.INT32_SCHEMA)
          .build();
  private static final Schema ENVELOPE =
      SchemaBuilder.struct()
          .name("lab.lab.orders.Envelope")
          .field("before", ROW)
          .field("after", ROW)
          .field("source", SOURCE)
          .field("op", Schema.STRING_SCHEMA)
          .field("ts_ms", Schema.OPTIONAL_INT64_SCHEMA)
          .build();

  private final ChangeEncoder encoder = new ChangeEncoder();

  @Test
  void encodesKeyAndEnvelopeAsJsonWithoutSchema() {
    SourceRecord record = change(7, "u", "false", 4468, 1);

    ChangeEncoder.Encoded encoded = encoder.encode(record);

    assertThat(utf8(encoded.key())).isEqualTo("{\"order_id\":7}");
    assertThat(utf8(encoded.value()))
        .isEqualTo(
            "{\"before\":{\"order_id\":7,\"status\":\"created\"},"
                + "\"after\":{\"order_id\":7,\"status\":\"paid\"},"
                + "\"source\":{\"snapshot\":\"false\",\"gtid\":\"0-1-18\","
                + "\"file\":\"mysql-bin.000001\",\"pos\":4468,\"row\":1},"
                + "\"op\":\"u\",\"ts_ms\":1000}");
    assertThat(encoded.orderId()).isEqualTo(7);
    assertThat(encoded.op()).isEqualTo(ChangeOp.UPDATE);
    assertThat(encoded.position())
        .isEqualTo(new SourcePosition("mysql-bin.000001", 4468, 1, "0-1-18"));
    assertThat(encoded.snapshot()).isFalse();
    assertThat(encoded.tombstone()).isFalse();
  }

  @Test
  void aTombstoneHasANullValueAndNoPositionOfItsOwn() {
    SourceRecord tombstone =
        new SourceRecord(
            Map.of(), Map.of(), TOPIC, null, KEY, new Struct(KEY).put("order_id", 7L), null, null);

    ChangeEncoder.Encoded encoded = encoder.encode(tombstone);

    assertThat(utf8(encoded.key())).isEqualTo("{\"order_id\":7}");
    assertThat(encoded.value()).isNull();
    assertThat(encoded.tombstone()).isTrue();
    assertThat(encoded.op()).isNull();
    assertThat(encoded.position()).isNull();
  }

  @Test
  void snapshotReadsAreMarked() {
    for (String marker : new String[] {"true", "first", "last", "first_in_data_collection"}) {
      assertThat(encoder.encode(change(1, "r", marker, 100, 0)).snapshot()).as(marker).isTrue();
    }
    assertThat(encoder.encode(change(1, "c", null, 100, 0)).snapshot()).isFalse();
  }

  @Test
  void refusesTablesNotKeyedByOrderId() {
    Schema otherKey = SchemaBuilder.struct().field("id", Schema.INT64_SCHEMA).build();
    SourceRecord record =
        new SourceRecord(
            Map.of(),
            Map.of(),
            TOPIC,
            null,
            otherKey,
            new Struct(otherKey).put("id", 1L),
            null,
            null);

    assertThatThrownBy(() -> encoder.encode(record))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("order_id");
  }

  @Test
  void corruptsWithAnInvalidUtf8PrefixAndHashesTheResult() {
    byte[] corrupted = ChangeEncoder.corrupt("{}".getBytes(StandardCharsets.UTF_8));

    assertThat(corrupted).containsExactly(0xC3, 0x28, '{', '}');
    assertThat(ChangeEncoder.sha256Hex(new byte[0]))
        .isEqualTo("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  }

  private static SourceRecord change(long orderId, String op, String snapshot, long pos, int row) {
    Struct before =
        op.equals("u") ? new Struct(ROW).put("order_id", orderId).put("status", "created") : null;
    Struct after =
        new Struct(ROW).put("order_id", orderId).put("status", op.equals("u") ? "paid" : "created");
    Struct source =
        new Struct(SOURCE)
            .put("snapshot", snapshot)
            .put("gtid", "0-1-18")
            .put("file", "mysql-bin.000001")
            .put("pos", pos)
            .put("row", row);
    Struct value =
        new Struct(ENVELOPE)
            .put("before", before)
            .put("after", after)
            .put("source", source)
            .put("op", op)
            .put("ts_ms", 1000L);
    return new SourceRecord(
        Map.of("server", "lab"),
        Map.of("pos", pos),
        TOPIC,
        null,
        KEY,
        new Struct(KEY).put("order_id", orderId),
        ENVELOPE,
        value);
  }

  private static String utf8(byte[] bytes) {
    return new String(bytes, StandardCharsets.UTF_8);
  }
}
