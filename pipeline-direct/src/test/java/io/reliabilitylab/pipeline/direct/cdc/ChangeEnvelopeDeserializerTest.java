package io.reliabilitylab.pipeline.direct.cdc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.reliabilitylab.pipeline.flink.envelope.ChangeEnvelope;
import io.reliabilitylab.pipeline.flink.envelope.OrderImage;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.java.typeutils.PojoTypeInfo;
import org.apache.flink.cdc.connectors.shaded.org.apache.kafka.connect.data.Schema;
import org.apache.flink.cdc.connectors.shaded.org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.flink.cdc.connectors.shaded.org.apache.kafka.connect.data.Struct;
import org.apache.flink.cdc.connectors.shaded.org.apache.kafka.connect.source.SourceRecord;
import org.apache.flink.util.Collector;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

class ChangeEnvelopeDeserializerTest {

  private static final Schema ROW =
      SchemaBuilder.struct()
          .name("lab.lab.orders.Value")
          .optional()
          .field("order_id", Schema.INT64_SCHEMA)
          .field("business_key", Schema.OPTIONAL_STRING_SCHEMA)
          .field("customer_id", Schema.OPTIONAL_INT64_SCHEMA)
          .field("amount_cents", Schema.OPTIONAL_INT64_SCHEMA)
          .field("status", Schema.OPTIONAL_STRING_SCHEMA)
          .field("event_id", Schema.OPTIONAL_INT64_SCHEMA)
          .field("seed", Schema.OPTIONAL_INT32_SCHEMA)
          .field(
              "updated_at",
              SchemaBuilder.string().name("io.debezium.time.ZonedTimestamp").optional().build())
          .build();

  private static final Schema SOURCE =
      SchemaBuilder.struct()
          .name("io.debezium.connector.mysql.Source")
          .field("ts_ms", Schema.INT64_SCHEMA)
          .field("snapshot", Schema.OPTIONAL_STRING_SCHEMA)
          .field("db", Schema.STRING_SCHEMA)
          .field("table", Schema.OPTIONAL_STRING_SCHEMA)
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

  private static final Instant UPDATED = Instant.parse("2026-01-01T00:00:01.234Z");

  @Test
  void keepsAnInsertWithItsPosition() {
    ChangeEnvelope envelope =
        only(record("c", null, row(7, 11), "mysql-bin.000003", 4711, 2, "0-1-42"));

    assertThat(envelope.op()).isEqualTo("c");
    assertThat(envelope.before()).isNull();
    assertThat(envelope.after())
        .isEqualTo(new OrderImage(7, "bk-7", 70L, 700L, "created", 11L, 42, micros(UPDATED)));
    assertThat(envelope.binlogFile()).isEqualTo("mysql-bin.000003");
    assertThat(envelope.binlogPos()).isEqualTo(4711);
    assertThat(envelope.rowIndex()).isEqualTo(2);
    assertThat(envelope.gtid()).isEqualTo("0-1-42");
    assertThat(envelope.sourceTsMillis()).isEqualTo(1_767_225_600_000L);
    assertThat(envelope.eventId()).isEqualTo(11L);
    assertThat(envelope.beforeEventId()).isNull();
  }

  @Test
  void anUpdateCarriesBothImagesAndTheBeforeEventId() {
    ChangeEnvelope envelope = only(record("u", row(7, 11), row(7, 12), "f", 10, 0, null));

    assertThat(envelope.eventId()).isEqualTo(12L);
    assertThat(envelope.beforeEventId()).isEqualTo(11L);
    assertThat(envelope.image().eventId()).isEqualTo(12L);
    assertThat(envelope.gtid()).isNull();
  }

  @Test
  void aDeleteIsIdentifiedByTheDeletedRow() {
    ChangeEnvelope envelope = only(record("d", row(7, 12), null, "f", 10, 1, null));

    assertThat(envelope.after()).isNull();
    assertThat(envelope.eventId()).isEqualTo(12L);
    assertThat(envelope.beforeEventId()).isEqualTo(12L);
    assertThat(envelope.image().orderId()).isEqualTo(7);
  }

  @Test
  void aSnapshotReadIsKeptAsR() {
    ChangeEnvelope envelope = only(record("r", null, row(3, 5), "", 0, 0, null));

    assertThat(envelope.op()).isEqualTo("r");
    assertThat(envelope.beforeEventId()).isNull();
    assertThat(envelope.binlogFile()).isEmpty();
  }

  @Test
  void skipsRecordsWithoutAnEnvelope() {
    Schema heartbeat = SchemaBuilder.struct().field("ts_ms", Schema.INT64_SCHEMA).build();
    SourceRecord record =
        new SourceRecord(
            Map.of(),
            Map.of(),
            "__debezium-heartbeat",
            null,
            null,
            null,
            heartbeat,
            new Struct(heartbeat).put("ts_ms", 1L));

    assertThat(collect(record)).isEmpty();
  }

  /**
   * A MySQL/MariaDB change's transaction is where the connector's offset restarts from: the
   * transaction's beginning, the same for each of its changes while each carries its own event
   * position. A snapshot read belongs to no transaction.
   */
  @Test
  void namesTheTransactionByTheOffsetItRestartsFrom() {
    Struct value =
        (Struct) record("u", row(7, 11), row(7, 12), "mysql-bin.000003", 4711, 1, null).value();
    SourceRecord change =
        new SourceRecord(
            Map.of("server", "lab"),
            Map.of("file", "mysql-bin.000003", "pos", 4000L, "event", 2L, "row", 1),
            "lab.lab.orders",
            null,
            null,
            null,
            ENVELOPE,
            value);

    assertThat(only(change).transaction()).isEqualTo("mysql-bin.000003:4000");
    assertThat(only(change).binlogPos()).isEqualTo(4711);
    assertThat(only(record("r", null, row(7, 11), "mysql-bin.000003", 4711, 0, null)).transaction())
        .isEmpty();
  }

  /** A change of the transaction fence's table carries no row: it marks what came before. */
  @Test
  void aChangeOfTheFenceIsAFence() {
    SourceRecord record = record("u", row(1, 1), row(1, 2), "mysql-bin.000003", 5120, 0, null);
    ((Struct) record.value()).getStruct("source").put("db", "srl_fence");

    ChangeEnvelope fence = only(record);

    assertThat(fence.isFence()).isTrue();
    assertThat(fence.binlogPos()).isEqualTo(5120);
    assertThat(fence.before()).isNull();
    assertThat(fence.after()).isNull();
  }

  @Test
  void refusesAnUnknownOperation() {
    assertThatThrownBy(() -> collect(record("t", null, row(1, 1), "f", 1, 0, null)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("Unknown Debezium operation 't'");
  }

  @Test
  void readsEpochBasedTimestampsByTheirLogicalType() {
    Schema micro =
        SchemaBuilder.struct()
            .optional()
            .field("order_id", Schema.INT64_SCHEMA)
            .field(
                "updated_at",
                SchemaBuilder.int64().name("io.debezium.time.MicroTimestamp").optional().build())
            .build();
    Schema envelope =
        SchemaBuilder.struct().field("after", micro).field("op", Schema.STRING_SCHEMA).build();
    Struct value =
        new Struct(envelope)
            .put("after", new Struct(micro).put("order_id", 1L).put("updated_at", 1_234_567L))
            .put("op", "c");
    SourceRecord record =
        new SourceRecord(Map.of(), Map.of(), "t", null, null, null, envelope, value);

    ChangeEnvelope result = only(record);

    assertThat(result.after()).isNotNull();
    assertThat(result.after().updatedAtMicros()).isEqualTo(1_234_567L);
    assertThat(result.binlogFile()).isEmpty();
  }

  /**
   * Debezium's PostgreSQL source block has no binlog file or offset but the change's LSN, and
   * {@code TIMESTAMP(3)} arrives as epoch milliseconds ({@code io.debezium.time.Timestamp}).
   */
  @Test
  void aPostgresChangeKeepsItsLsnAsTheOffset() {
    Schema pgRow =
        SchemaBuilder.struct()
            .name("lab.public.orders.Value")
            .optional()
            .field("order_id", Schema.INT64_SCHEMA)
            .field("event_id", Schema.OPTIONAL_INT64_SCHEMA)
            .field("seed", Schema.OPTIONAL_INT32_SCHEMA)
            .field(
                "updated_at",
                SchemaBuilder.int64().name("io.debezium.time.Timestamp").optional().build())
            .build();
    Schema pgSource =
        SchemaBuilder.struct()
            .name("io.debezium.connector.postgresql.Source")
            .field("ts_ms", Schema.INT64_SCHEMA)
            .field("db", Schema.STRING_SCHEMA)
            .field("schema", Schema.STRING_SCHEMA)
            .field("table", Schema.STRING_SCHEMA)
            .field("txId", Schema.OPTIONAL_INT64_SCHEMA)
            .field("lsn", Schema.OPTIONAL_INT64_SCHEMA)
            .build();
    Schema pgEnvelope =
        SchemaBuilder.struct()
            .name("lab.public.orders.Envelope")
            .field("before", pgRow)
            .field("after", pgRow)
            .field("source", pgSource)
            .field("op", Schema.STRING_SCHEMA)
            .build();
    Struct after =
        new Struct(pgRow)
            .put("order_id", 9L)
            .put("event_id", 4L)
            .put("seed", 1)
            .put("updated_at", UPDATED.toEpochMilli());
    Struct source =
        new Struct(pgSource)
            .put("ts_ms", 1_767_225_600_000L)
            .put("db", "lab")
            .put("schema", "public")
            .put("table", "orders")
            .put("txId", 771L)
            .put("lsn", 0x16_B374_D848L);
    Struct value = new Struct(pgEnvelope).put("after", after).put("source", source).put("op", "c");

    ChangeEnvelope envelope =
        only(
            new SourceRecord(
                Map.of("server", "lab"),
                Map.of("lsn", 0x16_B374_D848L),
                "lab.public.orders",
                null,
                null,
                null,
                pgEnvelope,
                value));

    assertThat(envelope.binlogFile()).isEmpty();
    assertThat(envelope.binlogPos()).isEqualTo(0x16_B374_D848L);
    assertThat(envelope.rowIndex()).isZero();
    assertThat(envelope.eventId()).isEqualTo(4L);
    assertThat(envelope.after().updatedAtMicros()).isEqualTo(micros(UPDATED));
  }

  @Test
  void theEnvelopeIsAFlinkPojoNotAKryoType() {
    TypeInformation<ChangeEnvelope> type = new ChangeEnvelopeDeserializer().getProducedType();

    assertThat(type).isInstanceOf(PojoTypeInfo.class);
  }

  private static long micros(Instant instant) {
    return ChronoUnit.MICROS.between(Instant.EPOCH, instant);
  }

  private static Struct row(long orderId, long eventId) {
    return new Struct(ROW)
        .put("order_id", orderId)
        .put("business_key", "bk-" + orderId)
        .put("customer_id", orderId * 10)
        .put("amount_cents", orderId * 100)
        .put("status", "created")
        .put("event_id", eventId)
        .put("seed", 42)
        .put("updated_at", UPDATED.toString());
  }

  private static SourceRecord record(
      String op,
      @Nullable Struct before,
      @Nullable Struct after,
      String file,
      long pos,
      int row,
      @Nullable String gtid) {
    Struct source =
        new Struct(SOURCE)
            .put("ts_ms", 1_767_225_600_000L)
            .put("db", "lab")
            .put("table", "orders")
            .put("gtid", gtid)
            .put("file", file)
            .put("pos", pos)
            .put("row", row);
    Struct value =
        new Struct(ENVELOPE)
            .put("before", before)
            .put("after", after)
            .put("source", source)
            .put("op", op)
            .put("ts_ms", 1_767_225_600_100L);
    return new SourceRecord(
        Map.of("server", "lab"),
        Map.of("pos", pos),
        "lab.lab.orders",
        null,
        null,
        null,
        ENVELOPE,
        value);
  }

  private static ChangeEnvelope only(SourceRecord record) {
    List<ChangeEnvelope> out = collect(record);
    assertThat(out).hasSize(1);
    return out.get(0);
  }

  private static List<ChangeEnvelope> collect(SourceRecord record) {
    List<ChangeEnvelope> out = new ArrayList<>();
    new ChangeEnvelopeDeserializer()
        .deserialize(
            record,
            new Collector<>() {
              @Override
              public void collect(ChangeEnvelope envelope) {
                out.add(envelope);
              }

              @Override
              public void close() {}
            });
    return out;
  }
}
