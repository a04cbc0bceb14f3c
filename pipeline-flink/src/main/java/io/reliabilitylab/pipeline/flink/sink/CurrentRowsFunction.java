package io.reliabilitylab.pipeline.flink.sink;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.reliabilitylab.pipeline.flink.envelope.ChangeEnvelope;
import io.reliabilitylab.pipeline.flink.envelope.OrderImage;
import org.apache.flink.api.common.functions.FlatMapFunction;
import org.apache.flink.table.data.RowData;
import org.apache.flink.types.RowKind;
import org.apache.flink.util.Collector;
import org.apiguardian.api.API;

/**
 * Turns an envelope into the current table's changes: {@code r}/{@code c} → {@code +I}, {@code u} →
 * {@code -U} (before) and {@code +U} (after), {@code d} → {@code -D} (before). A primary-key update
 * arrives from Flink CDC as {@code d} of the old key and {@code c} of the new one.
 */
@API(status = INTERNAL)
public final class CurrentRowsFunction implements FlatMapFunction<ChangeEnvelope, RowData> {

  private static final long serialVersionUID = 1L;

  @Override
  public void flatMap(ChangeEnvelope envelope, Collector<RowData> out) {
    switch (envelope.op()) {
      case "r", "c" -> out.collect(EnvelopeRows.current(RowKind.INSERT, required(envelope, true)));
      case "u" -> {
        out.collect(EnvelopeRows.current(RowKind.UPDATE_BEFORE, required(envelope, false)));
        out.collect(EnvelopeRows.current(RowKind.UPDATE_AFTER, required(envelope, true)));
      }
      case "d" -> out.collect(EnvelopeRows.current(RowKind.DELETE, required(envelope, false)));
      default ->
          throw new IllegalArgumentException("Unknown change operation '" + envelope.op() + "'");
    }
  }

  private static OrderImage required(ChangeEnvelope envelope, boolean after) {
    OrderImage image = after ? envelope.after() : envelope.before();
    if (image == null) {
      throw new IllegalArgumentException(
          "Envelope '"
              + envelope.op()
              + "' at "
              + envelope.binlogFile()
              + ":"
              + envelope.binlogPos()
              + " lacks its "
              + (after ? "after" : "before")
              + " image; the source needs binlog_row_image=FULL");
    }
    return image;
  }
}
