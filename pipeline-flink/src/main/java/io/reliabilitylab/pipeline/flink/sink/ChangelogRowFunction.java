package io.reliabilitylab.pipeline.flink.sink;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.reliabilitylab.pipeline.flink.envelope.ChangeEnvelope;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.table.data.RowData;
import org.apiguardian.api.API;

/** Turns an envelope into its one changelog row (always an insert). */
@API(status = INTERNAL)
public final class ChangelogRowFunction implements MapFunction<ChangeEnvelope, RowData> {

  private static final long serialVersionUID = 1L;

  @Override
  public RowData map(ChangeEnvelope envelope) {
    return EnvelopeRows.changelog(envelope);
  }
}
