package io.reliabilitylab.pipeline.flink.cluster;

import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.functions.RichMapFunction;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;

/** A small checkpointing streaming job: an endless throttled sequence into a keyed counter. */
final class CountingJob implements FlinkJob {

  @Override
  public String name() {
    return "counting";
  }

  @Override
  public void build(StreamExecutionEnvironment env) {
    env.setParallelism(2);
    env.enableCheckpointing(500);
    env.fromSource(
            new DataGeneratorSource<>(
                index -> index, Long.MAX_VALUE, RateLimiterStrategy.perSecond(200), Types.LONG),
            WatermarkStrategy.noWatermarks(),
            "sequence")
        .keyBy(value -> value % 8)
        .map(new Counter())
        .sinkTo(new DiscardingSink<>());
  }

  /** Counts per key in keyed state, so that checkpoints carry state. */
  static final class Counter extends RichMapFunction<Long, Long> {
    private transient ValueState<Long> count;

    @Override
    public void open(OpenContext context) {
      count = getRuntimeContext().getState(new ValueStateDescriptor<>("count", Types.LONG));
    }

    @Override
    public Long map(Long value) throws Exception {
      Long now = count.value() == null ? 1L : count.value() + 1;
      count.update(now);
      return now;
    }
  }
}
