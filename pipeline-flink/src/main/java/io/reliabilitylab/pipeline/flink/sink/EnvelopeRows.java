package io.reliabilitylab.pipeline.flink.sink;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.reliabilitylab.checks.iceberg.OrdersTables;
import io.reliabilitylab.pipeline.flink.envelope.ChangeEnvelope;
import io.reliabilitylab.pipeline.flink.envelope.OrderImage;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.types.RowKind;
import org.apache.iceberg.flink.FlinkSchemaUtil;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * Maps change envelopes to the Flink rows of the two Iceberg tables, in the tables' column order.
 * Timestamps become {@code TIMESTAMP_LTZ(6)} values (Iceberg {@code timestamptz}).
 */
@API(status = INTERNAL)
public final class EnvelopeRows {

  /** The Flink row type of {@code orders_current}, derived from its Iceberg schema. */
  public static final RowType CURRENT_TYPE = FlinkSchemaUtil.convert(OrdersTables.CURRENT_SCHEMA);

  /** The Flink row type of {@code orders_changelog}, derived from its Iceberg schema. */
  public static final RowType CHANGELOG_TYPE =
      FlinkSchemaUtil.convert(OrdersTables.CHANGELOG_SCHEMA);

  private EnvelopeRows() {}

  /** A row of the current table with the given kind. */
  public static RowData current(RowKind kind, OrderImage image) {
    GenericRowData row = new GenericRowData(kind, 8);
    row.setField(0, image.orderId());
    row.setField(1, text(image.businessKey()));
    row.setField(2, image.customerId());
    row.setField(3, image.amountCents());
    row.setField(4, text(image.status()));
    row.setField(5, image.eventId());
    row.setField(6, image.seed());
    row.setField(7, timestamp(image.updatedAtMicros()));
    return row;
  }

  /** The changelog row of one envelope: always an insert. */
  public static RowData changelog(ChangeEnvelope envelope) {
    OrderImage image = envelope.image();
    GenericRowData row = new GenericRowData(RowKind.INSERT, 15);
    row.setField(0, StringData.fromString(envelope.op()));
    row.setField(1, envelope.eventId());
    row.setField(2, envelope.beforeEventId());
    row.setField(3, image.orderId());
    row.setField(4, text(image.businessKey()));
    row.setField(5, image.customerId());
    row.setField(6, image.amountCents());
    row.setField(7, text(image.status()));
    row.setField(8, image.seed());
    row.setField(9, timestamp(image.updatedAtMicros()));
    row.setField(10, StringData.fromString(envelope.binlogFile()));
    row.setField(11, envelope.binlogPos());
    row.setField(12, envelope.rowIndex());
    row.setField(13, text(envelope.gtid()));
    row.setField(14, TimestampData.fromEpochMillis(envelope.sourceTsMillis()));
    return row;
  }

  private static @Nullable StringData text(@Nullable String value) {
    return value == null ? null : StringData.fromString(value);
  }

  private static @Nullable TimestampData timestamp(@Nullable Long micros) {
    if (micros == null) {
      return null;
    }
    long millis = Math.floorDiv(micros, 1_000L);
    int nanosOfMilli = (int) Math.floorMod(micros, 1_000L) * 1_000;
    return TimestampData.fromEpochMillis(millis, nanosOfMilli);
  }
}
