package io.reliabilitylab.pipeline.direct.cdc;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.reliabilitylab.pipeline.flink.envelope.ChangeEnvelope;
import io.reliabilitylab.pipeline.flink.envelope.OrderImage;
import io.reliabilitylab.source.mysql.TransactionFence;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.Date;
import java.util.Map;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.cdc.connectors.shaded.org.apache.kafka.connect.data.Field;
import org.apache.flink.cdc.connectors.shaded.org.apache.kafka.connect.data.Schema;
import org.apache.flink.cdc.connectors.shaded.org.apache.kafka.connect.data.Struct;
import org.apache.flink.cdc.connectors.shaded.org.apache.kafka.connect.source.SourceRecord;
import org.apache.flink.cdc.debezium.DebeziumDeserializationSchema;
import org.apache.flink.util.Collector;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps Debezium's change envelope of the {@code orders} table: op, before and after images and the
 * source position (binlog file, event offset, row index inside the event, GTID, server timestamp;
 * from PostgreSQL the change's LSN as the offset, with no file). Records without an envelope
 * (heartbeats, schema changes) are skipped.
 */
@API(status = EXPERIMENTAL)
public final class ChangeEnvelopeDeserializer
    implements DebeziumDeserializationSchema<ChangeEnvelope> {

  private static final long serialVersionUID = 1L;
  private static final Logger LOG = LoggerFactory.getLogger(ChangeEnvelopeDeserializer.class);

  @Override
  public void deserialize(SourceRecord record, Collector<ChangeEnvelope> out) {
    ChangeEnvelope envelope = toEnvelope(record);
    if (envelope != null) {
      out.collect(envelope);
    }
  }

  /**
   * The envelope of a record, a {@linkplain ChangeEnvelope#fence fence} for a change of the
   * transaction fence's table, or null when the record carries no row change.
   */
  public static @Nullable ChangeEnvelope toEnvelope(SourceRecord record) {
    if (!(record.value() instanceof Struct value) || value.schema().field("op") == null) {
      LOG.debug("Skipping a record without a change envelope from topic {}", record.topic());
      return null;
    }
    Struct fenceSource = struct(value, "source");
    if (fenceSource != null && TransactionFence.DATABASE.equals(text(fenceSource, "db"))) {
      return ChangeEnvelope.fence(
          textOr(fenceSource, "file", ""),
          longOr(fenceSource, "pos", 0L),
          longOr(fenceSource, "ts_ms", 0L));
    }
    String op = value.getString("op");
    if (op == null || !(op.equals("r") || op.equals("c") || op.equals("u") || op.equals("d"))) {
      throw new IllegalArgumentException(
          "Unknown Debezium operation '" + op + "' in a record from topic " + record.topic());
    }
    Struct source = struct(value, "source");
    String file = "";
    long pos = 0;
    int row = 0;
    String gtid = null;
    long tsMillis = 0;
    if (source != null) {
      file = textOr(source, "file", "");
      // PostgreSQL's changes carry the WAL position of their record instead of a binlog offset
      pos =
          source.schema().field("lsn") != null
              ? longOr(source, "lsn", 0L)
              : longOr(source, "pos", 0L);
      row = (int) longOr(source, "row", 0L);
      gtid = text(source, "gtid");
      tsMillis = longOr(source, "ts_ms", 0L);
    }
    return new ChangeEnvelope(
        op,
        image(struct(value, "before")),
        image(struct(value, "after")),
        file,
        pos,
        row,
        gtid,
        tsMillis,
        op.equals("r") ? "" : transaction(record, source));
  }

  /**
   * The source transaction of a change: from MySQL/MariaDB the binlog position the connector's
   * offset restarts from, where the change's transaction begins (the same for all its changes);
   * from PostgreSQL its transaction id.
   */
  private static String transaction(SourceRecord record, @Nullable Struct source) {
    if (source != null && source.schema().field("txId") != null && source.get("txId") != null) {
      return "txid:" + source.get("txId");
    }
    Map<String, ?> offset = record.sourceOffset();
    if (offset == null || offset.get("file") == null || offset.get("pos") == null) {
      return "";
    }
    return offset.get("file") + ":" + offset.get("pos");
  }

  @Override
  public TypeInformation<ChangeEnvelope> getProducedType() {
    return TypeInformation.of(ChangeEnvelope.class);
  }

  private static @Nullable OrderImage image(@Nullable Struct row) {
    if (row == null) {
      return null;
    }
    Long orderId = (Long) number(row, "order_id", Long.class);
    if (orderId == null) {
      throw new IllegalArgumentException("A row image of orders has no order_id: " + row);
    }
    Number seed = number(row, "seed", Integer.class);
    return new OrderImage(
        orderId,
        text(row, "business_key"),
        (Long) number(row, "customer_id", Long.class),
        (Long) number(row, "amount_cents", Long.class),
        text(row, "status"),
        (Long) number(row, "event_id", Long.class),
        seed == null ? null : seed.intValue(),
        timestampMicros(row, "updated_at"));
  }

  private static @Nullable Struct struct(Struct parent, String name) {
    return parent.schema().field(name) == null ? null : parent.getStruct(name);
  }

  private static @Nullable String text(Struct struct, String name) {
    if (struct.schema().field(name) == null) {
      return null;
    }
    Object value = struct.get(name);
    return value == null ? null : value.toString();
  }

  private static String textOr(Struct struct, String name, String fallback) {
    String value = text(struct, name);
    return value == null ? fallback : value;
  }

  private static long longOr(Struct struct, String name, long fallback) {
    if (struct.schema().field(name) == null) {
      return fallback;
    }
    Object value = struct.get(name);
    return value instanceof Number number ? number.longValue() : fallback;
  }

  /** A number column as {@code type}: MySQL's integer widths map to Connect's INT8..INT64. */
  private static @Nullable Number number(Struct row, String name, Class<? extends Number> type) {
    if (row.schema().field(name) == null) {
      return null;
    }
    Object value = row.get(name);
    if (value == null) {
      return null;
    }
    if (!(value instanceof Number number)) {
      throw new IllegalArgumentException(
          "Column " + name + " of orders should be numeric, got " + value.getClass().getName());
    }
    return type == Long.class
        ? Long.valueOf(number.longValue())
        : Integer.valueOf(number.intValue());
  }

  /**
   * A timestamp column in microseconds. Debezium gives MySQL {@code TIMESTAMP} as an ISO text with
   * offset ({@code io.debezium.time.ZonedTimestamp}) and {@code DATETIME} as epoch millis, micros
   * or nanos depending on the logical type and the time precision mode; all are handled.
   */
  private static @Nullable Long timestampMicros(Struct row, String name) {
    Field field = row.schema().field(name);
    if (field == null) {
      return null;
    }
    Object value = row.get(field);
    if (value == null) {
      return null;
    }
    Instant instant;
    if (value instanceof String text) {
      try {
        return IsoTimestamps.epochMicros(text);
      } catch (DateTimeParseException e) {
        throw new IllegalArgumentException(
            "Column " + name + " holds '" + text + "', not an ISO timestamp with offset", e);
      }
    } else if (value instanceof Date date) {
      instant = date.toInstant();
    } else if (value instanceof Long number) {
      String logical = logicalName(field.schema());
      if (logical.endsWith("NanoTimestamp")) {
        return Math.floorDiv(number, 1_000L);
      } else if (logical.endsWith("MicroTimestamp")) {
        return number;
      }
      return Math.multiplyExact(number, 1_000L);
    } else {
      throw new IllegalArgumentException(
          "Column " + name + " holds a " + value.getClass().getName() + ", not a timestamp");
    }
    return ChronoUnit.MICROS.between(Instant.EPOCH, instant);
  }

  private static String logicalName(Schema schema) {
    String name = schema.name();
    return name == null ? "" : name;
  }
}
