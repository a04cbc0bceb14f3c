package io.reliabilitylab.harness.bench;

import io.reliabilitylab.runner.ChangelogWalk;
import io.reliabilitylab.source.jdbc.ChangeWriter;
import io.reliabilitylab.spi.data.ChangeOp;
import io.reliabilitylab.spi.pipeline.TableAccess;
import io.reliabilitylab.workload.SourceChange;
import io.reliabilitylab.workload.SourceTransaction;
import io.reliabilitylab.workload.Workload;
import io.reliabilitylab.workload.WorkloadConfig;
import io.reliabilitylab.workload.WorkloadGenerator;
import io.reliabilitylab.workload.WriteReport;
import io.reliabilitylab.workload.oracle.Oracle;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The bench's latency phase: a workload of its own on new keys, written at an offered rate;
 * insert-to-visible latency per row, from the client's commit time to the commit of the first
 * changelog snapshot holding it.
 */
final class LatencyPhase {

  /** Keys of the latency phase start far above any key the mode's workload uses. */
  private static final long KEY_BASE = 500_000_000_000L;

  private final ChangeWriter writer;
  private final SinkWatch watch;

  /** A phase writing through {@code writer} (paced at the offered rate). */
  LatencyPhase(ChangeWriter writer, SinkWatch watch) {
    this.writer = writer;
    this.watch = watch;
  }

  record Result(BenchReport.Latency summary, double achievedRate) {}

  /**
   * {@code changes} changes like {@code modeWorkload}'s, on keys of their own, with event ids from
   * {@code firstEventId}: the phase's size is known only once the throughput is, and at scale a
   * workload generated ahead for the largest size would hold the heap for nothing.
   */
  static List<SourceTransaction> workload(
      WorkloadConfig modeWorkload, long firstEventId, long changes) {
    Workload generated =
        WorkloadGenerator.generate(
            modeWorkload.toBuilder()
                .events(Math.toIntExact(Math.max(1, changes)))
                .seed(modeWorkload.seed() + 2)
                .initialRows(0)
                .firstEventId(firstEventId)
                .build());
    return new ShiftedRounds(generated, KEY_BASE).round(0);
  }

  Result run(TableAccess tables, ChangelogWalk walk, List<SourceTransaction> writes)
      throws Exception {
    Map<Long, Integer> insertedAt = new HashMap<>();
    for (int i = 0; i < writes.size(); i++) {
      for (SourceChange change : writes.get(i).changes()) {
        if (change instanceof SourceChange.Insert) {
          insertedAt.put(Objects.requireNonNull(change.writtenEventId()), i);
        }
      }
    }
    if (writes.isEmpty()) {
      return new Result(Stats.latency(new long[0]), 0);
    }
    WriteReport written = writer.write(writes);
    List<Long> latencies = new ArrayList<>(insertedAt.size());
    watch.awaitVisible(
        tables,
        walk,
        Oracle.envelopes(writes),
        (snapshot, event) -> {
          Integer index = event.op() == ChangeOp.CREATE ? insertedAt.get(event.eventId()) : null;
          if (index != null) {
            latencies.add(
                Duration.between(written.commitTime(index), snapshot.committedAt()).toMillis());
          }
        });
    return new Result(
        Stats.latency(latencies.stream().mapToLong(Long::longValue).toArray()),
        written.changesPerSecond());
  }
}
