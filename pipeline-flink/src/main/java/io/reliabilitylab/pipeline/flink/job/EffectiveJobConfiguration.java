package io.reliabilitylab.pipeline.flink.job;

import io.reliabilitylab.checks.iceberg.OrdersTables;
import io.reliabilitylab.pipeline.flink.faults.StartGates;
import io.reliabilitylab.pipeline.flink.sink.JobVariant;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * A reference job's settings as the run record shows them: the Flink keys they set, the sinks and
 * what each broken variant breaks, the fault points. No secrets.
 */
final class EffectiveJobConfiguration {

  private EffectiveJobConfiguration() {}

  static Map<String, String> of(OrdersJobSettings settings) {
    Map<String, String> map = new LinkedHashMap<>();
    map.put("execution.checkpointing.interval", settings.checkpointInterval().toString());
    map.put("execution.checkpointing.mode", "EXACTLY_ONCE");
    map.put("execution.checkpointing.timeout", settings.checkpointTimeout().toString());
    map.put(
        "execution.checkpointing.tolerable-failed-checkpoints",
        Integer.toString(settings.tolerableCheckpointFailures()));
    map.put("execution.checkpointing.externalized-checkpoint-retention", "RETAIN_ON_CANCELLATION");
    map.put("execution.checkpointing.dir", settings.checkpointStorageUri().toString());
    map.put(
        "state.storage.fs.memory-threshold",
        settings.taskStateInFiles() ? "0 b" : "Flink default (20 kb)");
    map.put("restart-strategy.type", "fixed-delay");
    map.put("restart-strategy.fixed-delay.attempts", Integer.toString(settings.restartAttempts()));
    map.put("restart-strategy.fixed-delay.delay", settings.restartDelay().toString());
    map.put("parallelism.default", Integer.toString(settings.parallelism()));
    map.put("sink", "iceberg-flink-1.20 FlinkSink (v1 sink API), format v2");
    settings.catalog().recorded().forEach((key, value) -> map.put("sink." + key, value));
    map.put("sink.current.table", settings.namespace() + "." + OrdersTables.CURRENT);
    map.put(JobVariant.OPTION, settings.variant().text());
    map.put(
        OrdersJobSettings.TRANSACTIONS_OPTION,
        settings.alignTransactions()
            ? "aligned (each source transaction held whole until the change log shows it complete)"
            : "as-read (a commit may end inside a source transaction)");
    map.put(
        "sink.current.mode",
        switch (settings.variant()) {
          case BROKEN_CURRENT_APPEND ->
              "append (BROKEN: deletes and update-befores dropped, old rows never deleted)";
          case BROKEN_CURRENT_SPLIT_COMMIT ->
              "upsert, equality fields [order_id] (BROKEN: each commit's equality deletes"
                  + " committed in a snapshot of their own, ahead of its rows)";
          case BROKEN_CURRENT_COMMIT_PER_WRITER ->
              "upsert, equality fields [order_id] (BROKEN: each checkpoint committed one writer's"
                  + " files at a time)";
          default -> "upsert, equality fields [order_id]";
        });
    map.put("sink.current.uid-prefix", settings.currentUidPrefix());
    map.put("sink.changelog.table", settings.namespace() + "." + OrdersTables.CHANGELOG);
    map.put(
        "sink.changelog.mode",
        settings.variant() == JobVariant.BROKEN_CHANGELOG_AT_LEAST_ONCE
            ? "append (BROKEN: a restored checkpoint's files committed again, unchecked)"
            : "append");
    if (settings.variant() == JobVariant.BROKEN_SOURCE_NOT_RESTORED) {
      map.put("source.uid", "new on every build (BROKEN: source state never restored)");
    }
    map.put("sink.changelog.uid-prefix", settings.changelogUidPrefix());
    map.put("sink.format-version", "2");
    map.put("sink.partitioning", "none");
    map.put(
        "sink." + OrdersJobSettings.MAX_CONTINUOUS_EMPTY_COMMITS,
        Integer.toString(settings.maxContinuousEmptyCommits()));
    if (settings.catalog().commitsAcrossProcesses()) {
      new TreeMap<>(OrdersJobSettings.SERVICE_COMMIT_RETRIES)
          .forEach((key, value) -> map.put("sink." + key, value));
    }
    map.put(
        "fault-points",
        settings.faultPoints()
            ? "on (no-ops until armed): " + String.join(", ", settings.faultPointNames())
            : "off");
    if (settings.faultPoints()) {
      Path channel = settings.faultChannel();
      map.put(
          "fault-points.armed-through",
          channel == null
              ? "the lab's JVM (in-JVM switchboard)"
              : "fault channel " + channel.toAbsolutePath().normalize());
      if (settings.startGate() != null) {
        map.put(
            "fault-points.start-gate",
            "the job's first element waits until the lab armed the faults placed at the job's"
                + " start (at most "
                + StartGates.LONGEST_WAIT.toSeconds()
                + " s)");
      }
    }
    return map;
  }
}
