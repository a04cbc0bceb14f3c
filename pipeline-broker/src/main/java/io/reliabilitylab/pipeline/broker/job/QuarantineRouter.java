package io.reliabilitylab.pipeline.broker.job;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.reliabilitylab.pipeline.flink.envelope.ChangeEnvelope;
import java.util.Objects;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.metrics.Counter;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.util.Collector;
import org.apache.flink.util.OutputTag;
import org.apiguardian.api.API;

/**
 * Splits decoded records: changes go on as {@link ChangeEnvelope}s, quarantined records to the side
 * output {@link #DEAD_LETTERS} (for {@link DeadLetterSink}), counted as {@value #QUARANTINED}.
 *
 * <pre>{@code
 * SingleOutputStreamOperator<ChangeEnvelope> changes = QuarantineRouter.route(decoded);
 * changes.getSideOutput(QuarantineRouter.DEAD_LETTERS)
 *     .sinkTo(DeadLetterSink.create(bootstrapServers, DeadLetterSink.topicFor(topic)))
 *     .uid(DeadLetterSink.UID);
 * }</pre>
 *
 * <p>The broken routers (negative controls): {@link #routeSkipping} drops what it would quarantine,
 * counted as {@value #SKIPPED}, as a format told to ignore parse errors does; {@link #routeFailing}
 * fails the job on it, as a format without that option does.
 */
@API(status = EXPERIMENTAL)
public final class QuarantineRouter extends ProcessFunction<DecodedRecord, ChangeEnvelope> {

  /** The side output of quarantined records. */
  public static final OutputTag<DecodedRecord> DEAD_LETTERS =
      new OutputTag<>("dead-letters", DecodedRecord.TYPE);

  /** The counter of quarantined records. */
  public static final String QUARANTINED = "quarantined";

  /** The counter of undecodable records the broken router dropped. */
  public static final String SKIPPED = "undecodableSkipped";

  /** The operator's uid. */
  public static final String UID = "quarantine-router";

  private static final long serialVersionUID = 1L;
  private static final TypeInformation<ChangeEnvelope> ENVELOPES =
      TypeInformation.of(ChangeEnvelope.class);

  /** What the router does with a record it cannot decode. */
  private enum Undecodable {
    QUARANTINE,
    SKIP,
    FAIL
  }

  private final Undecodable undecodable;
  private transient Counter quarantined;

  private QuarantineRouter(Undecodable undecodable) {
    this.undecodable = undecodable;
  }

  /** Adds the router behind a stream of decoded records, with a stable uid. */
  public static SingleOutputStreamOperator<ChangeEnvelope> route(
      DataStream<DecodedRecord> decoded) {
    return route(decoded, Undecodable.QUARANTINE);
  }

  /**
   * BROKEN (a negative control): adds a router that drops every record it cannot decode, leaving
   * the dead-letter output empty.
   */
  public static SingleOutputStreamOperator<ChangeEnvelope> routeSkipping(
      DataStream<DecodedRecord> decoded) {
    return route(decoded, Undecodable.SKIP);
  }

  /**
   * BROKEN (a negative control): adds a router that fails its task on a record it cannot decode;
   * the restarted job reads the record again, and fails again.
   */
  public static SingleOutputStreamOperator<ChangeEnvelope> routeFailing(
      DataStream<DecodedRecord> decoded) {
    return route(decoded, Undecodable.FAIL);
  }

  private static SingleOutputStreamOperator<ChangeEnvelope> route(
      DataStream<DecodedRecord> decoded, Undecodable undecodable) {
    Objects.requireNonNull(decoded, "decoded");
    return decoded
        .process(new QuarantineRouter(undecodable))
        .returns(ENVELOPES)
        .uid(UID)
        .name(
            switch (undecodable) {
              case QUARANTINE -> "quarantine router";
              case SKIP -> "undecodable records dropped (BROKEN)";
              case FAIL -> "undecodable records fail the job (BROKEN)";
            });
  }

  @Override
  public void open(OpenContext openContext) {
    quarantined =
        getRuntimeContext()
            .getMetricGroup()
            .counter(undecodable == Undecodable.SKIP ? SKIPPED : QUARANTINED);
  }

  @Override
  public void processElement(
      DecodedRecord record,
      ProcessFunction<DecodedRecord, ChangeEnvelope>.Context context,
      Collector<ChangeEnvelope> out) {
    ChangeEnvelope change = record.change();
    if (change != null) {
      out.collect(change);
    } else if (undecodable == Undecodable.FAIL) {
      throw new IllegalStateException(
          "Undecodable record at partition "
              + record.sourcePartition()
              + ", offset "
              + record.sourceOffset()
              + ": not a change envelope (BROKEN: the job fails instead of quarantining it)");
    } else {
      quarantined.inc();
      if (undecodable == Undecodable.QUARANTINE) {
        context.output(DEAD_LETTERS, record);
      }
    }
  }
}
