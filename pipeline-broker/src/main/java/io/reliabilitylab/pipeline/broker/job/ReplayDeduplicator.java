package io.reliabilitylab.pipeline.broker.job;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.reliabilitylab.pipeline.flink.envelope.ChangeEnvelope;
import java.time.Duration;
import java.util.Objects;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.StateTtlConfig;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.java.functions.KeySelector;
import org.apache.flink.metrics.Counter;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.util.Collector;
import org.apiguardian.api.API;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Drops replayed changes: keyed by {@code order_id}, it remembers the {@link BinlogPosition} of the
 * last change it forwarded for the key and drops any change at or before it — a Debezium restart
 * from an older offset, or a redelivery, sends changes again with their original positions. Counts
 * {@value #REPLAYS_SEEN} (changes at or before the key's last position), {@value #REPLAYS_DROPPED}
 * and {@value #FORWARDED}.
 *
 * <p>The broken variant ({@link #dedupBroken}, a negative control) drops a change only when it
 * repeats the key's last position: a redelivery of older changes of a key passes through.
 *
 * <p>The remembered position expires {@code ttl} after it was written (default {@link
 * #DEFAULT_TTL}); a replay that arrives later than that for a key that did not change meanwhile is
 * forwarded again. Snapshot reads ({@code r}) carry the snapshot's position, which all keys share;
 * per key there is one, so they are ordered like any other change.
 *
 * <pre>{@code
 * DataStream<ChangeEnvelope> unique = ReplayDeduplicator.dedup(changes, Duration.ofHours(1));
 * }</pre>
 */
@API(status = EXPERIMENTAL)
public final class ReplayDeduplicator
    extends KeyedProcessFunction<Long, ChangeEnvelope, ChangeEnvelope> {

  /** The counter of changes dropped as replays. */
  public static final String REPLAYS_DROPPED = "replaysDropped";

  /** The counter of changes at or before their key's last forwarded position, dropped or not. */
  public static final String REPLAYS_SEEN = "replaysSeen";

  /** The counter of changes forwarded. */
  public static final String FORWARDED = "forwarded";

  /** How long a key's last position is kept by default. */
  public static final Duration DEFAULT_TTL = Duration.ofHours(1);

  /** The operator's uid; its state is the last forwarded position per key. */
  public static final String UID = "replay-dedup";

  /** The name of the keyed value state. */
  public static final String STATE_NAME = "last-forwarded-position";

  private static final long serialVersionUID = 1L;
  private static final Logger LOG = LoggerFactory.getLogger(ReplayDeduplicator.class);
  private static final TypeInformation<ChangeEnvelope> ENVELOPES =
      TypeInformation.of(ChangeEnvelope.class);

  private final Duration ttl;
  private final boolean broken;
  private transient ValueState<BinlogPosition> lastForwarded;
  private transient Counter replaysSeen;
  private transient Counter replaysDropped;
  private transient Counter forwarded;

  /** A deduplicator that keeps each key's position for {@link #DEFAULT_TTL}. */
  public ReplayDeduplicator() {
    this(DEFAULT_TTL);
  }

  /** A deduplicator that keeps each key's position for {@code ttl} after it was written. */
  public ReplayDeduplicator(Duration ttl) {
    this(ttl, false);
  }

  private ReplayDeduplicator(Duration ttl, boolean broken) {
    Objects.requireNonNull(ttl, "ttl");
    if (ttl.isNegative() || ttl.isZero()) {
      throw new IllegalArgumentException("ttl must be positive, got " + ttl);
    }
    this.ttl = ttl;
    this.broken = broken;
  }

  /** Keys changes by {@code order_id} (a delete's before image, else the after image). */
  public static KeySelector<ChangeEnvelope, Long> byOrderId() {
    return new OrderIdKey();
  }

  /** Keys the stream by {@code order_id} and adds the deduplicator with a stable uid. */
  public static SingleOutputStreamOperator<ChangeEnvelope> dedup(
      DataStream<ChangeEnvelope> changes, Duration ttl) {
    Objects.requireNonNull(changes, "changes");
    return changes
        .keyBy(byOrderId(), Types.LONG)
        .process(new ReplayDeduplicator(ttl))
        .returns(ENVELOPES)
        .uid(UID)
        .name("replay dedup");
  }

  /**
   * BROKEN on purpose, a negative control: as {@link #dedup}, but the deduplicator drops a change
   * only when it repeats its key's last forwarded position, so that a redelivery of older changes
   * passes through (a comparison by equality where an order was needed). Without redeliveries it
   * forwards what the faithful one does.
   */
  public static SingleOutputStreamOperator<ChangeEnvelope> dedupBroken(
      DataStream<ChangeEnvelope> changes, Duration ttl) {
    Objects.requireNonNull(changes, "changes");
    return changes
        .keyBy(byOrderId(), Types.LONG)
        .process(new ReplayDeduplicator(ttl, true))
        .returns(ENVELOPES)
        .uid(UID)
        .name("BROKEN: replay dedup drops only repeats of the last position");
  }

  /** The keyed state's descriptor, with its time-to-live. */
  ValueStateDescriptor<BinlogPosition> stateDescriptor() {
    ValueStateDescriptor<BinlogPosition> descriptor =
        new ValueStateDescriptor<>(STATE_NAME, TypeInformation.of(BinlogPosition.class));
    descriptor.enableTimeToLive(
        StateTtlConfig.newBuilder(ttl)
            .setUpdateType(StateTtlConfig.UpdateType.OnCreateAndWrite)
            .setStateVisibility(StateTtlConfig.StateVisibility.NeverReturnExpired)
            .build());
    return descriptor;
  }

  @Override
  public void open(OpenContext openContext) {
    lastForwarded = getRuntimeContext().getState(stateDescriptor());
    replaysSeen = getRuntimeContext().getMetricGroup().counter(REPLAYS_SEEN);
    replaysDropped = getRuntimeContext().getMetricGroup().counter(REPLAYS_DROPPED);
    forwarded = getRuntimeContext().getMetricGroup().counter(FORWARDED);
  }

  @Override
  public void processElement(
      ChangeEnvelope envelope,
      KeyedProcessFunction<Long, ChangeEnvelope, ChangeEnvelope>.Context context,
      Collector<ChangeEnvelope> out)
      throws Exception {
    BinlogPosition position = BinlogPosition.of(envelope);
    BinlogPosition last = lastForwarded.value();
    boolean replay = last != null && position.compareTo(last) <= 0;
    if (replay) {
      replaysSeen.inc();
    }
    if (broken ? position.equals(last) : replay) {
      replaysDropped.inc();
      LOG.debug(
          "Dropped a replayed '{}' of order {} at {} (last forwarded {})",
          envelope.op(),
          context.getCurrentKey(),
          position,
          last);
      return;
    }
    if (!replay) {
      // the broken one forwards older replays but keeps the newest position
      lastForwarded.update(position);
    }
    forwarded.inc();
    out.collect(envelope);
  }

  private static final class OrderIdKey implements KeySelector<ChangeEnvelope, Long> {
    private static final long serialVersionUID = 1L;

    @Override
    public Long getKey(ChangeEnvelope envelope) {
      return envelope.image().orderId();
    }
  }
}
