package io.reliabilitylab.pipeline.direct.faults;

import static org.assertj.core.api.Assertions.assertThat;

import io.reliabilitylab.faults.CheckpointFailureInjector;
import io.reliabilitylab.faults.CoordinatorFailureInjector;
import io.reliabilitylab.faults.NetworkBandwidthInjector;
import io.reliabilitylab.faults.NetworkLatencyInjector;
import io.reliabilitylab.faults.NetworkPartitionInjector;
import io.reliabilitylab.faults.SinkCommitFailureInjector;
import io.reliabilitylab.faults.SourceCrashInjector;
import io.reliabilitylab.faults.TaskExceptionInjector;
import io.reliabilitylab.faults.TaskFailureInjector;
import io.reliabilitylab.record.RunRecord;
import io.reliabilitylab.spi.fault.FaultEvidence;
import io.reliabilitylab.spi.fault.RecoveryEvidence;
import java.util.List;
import java.util.Map;

/**
 * What each built-in fault variant proves beyond "fired, recovered, every check passed", judged on
 * the records of a {@code --faults all} suite on the direct pipeline (the suite's own test asserts
 * the rest): the variants run once, in that suite, rather than again scenario by scenario.
 */
public final class VariantEvidence {

  private VariantEvidence() {}

  /** Asserts every variant's own evidence in the suite's records, by scenario name. */
  public static void assertEachVariantsOwnEvidence(Map<String, RunRecord> byScenario) {
    assertSourceSideVariantsEvidence(byScenario);
    assertSnapshotSplitsEvidence(byScenario);
    assertSinkSideVariantsEvidence(byScenario);
  }

  /** flink-cdc#1061's regression: a checkpoint between two chunks, then the failure. */
  public static void assertSnapshotSplitsEvidence(Map<String, RunRecord> byScenario) {
    RunRecord splits =
        run(byScenario, new TaskExceptionInjector().name(), TaskExceptionInjector.SNAPSHOT_SPLITS);
    assertThat(splits.effectiveConfiguration()).containsEntry("source.snapshot.split-size", "4");
    assertThat(splits.faults().get(0).recovery().details())
        .as("a checkpoint completed between two chunks of the snapshot, before the failure")
        .containsKeys(
            "checkpoint_committed_before_failure", "snapshot_rows_committed_before_failure")
        .hasEntrySatisfying("hazard_reached", reached -> assertThat(reached).startsWith("yes:"));
  }

  /**
   * The evidence of the variants whose recovery restores the source: the snapshot-phase faults, the
   * lost cluster, the tolerated and the restarting checkpoint failures.
   */
  public static void assertSourceSideVariantsEvidence(Map<String, RunRecord> byScenario) {
    assertThat(
            details(
                byScenario,
                new TaskExceptionInjector().name(),
                TaskExceptionInjector.SNAPSHOT_PHASE))
        .containsEntry("position", "snapshot-phase:50");
    assertThat(
            details(
                byScenario, new TaskFailureInjector().name(), TaskFailureInjector.SNAPSHOT_PHASE))
        .containsKeys("snapshot_latch_closed_at", "task_manager");
    clusterDies(
        details(
            byScenario,
            new CoordinatorFailureInjector().name(),
            CoordinatorFailureInjector.CLUSTER_DIES));
    checkpointFailureReason(byScenario, "default", "");
    // the sync-phase failure fails the task: Flink records the checkpoint as declined by the task,
    // or, when the failover suspends the coordinator before the decline arrives (seen in CI on a
    // loaded machine), as aborted by that suspension
    checkpointFailureReason(
        byScenario, "restart-sync", "TASK_FAILURE", "CHECKPOINT_COORDINATOR_SUSPEND");
  }

  /** The evidence of the variants that live in the sink or the checkpoint coordinator alone. */
  public static void assertSinkSideVariantsEvidence(Map<String, RunRecord> byScenario) {
    checkpointFailureReason(byScenario, "expired", "CHECKPOINT_EXPIRED");
    for (String variant :
        List.of(
            SinkCommitFailureInjector.FAIL_AFTER_SWAP,
            SinkCommitFailureInjector.COMMIT_STATE_UNKNOWN_VARIANT)) {
      commitNotRepeated(run(byScenario, new SinkCommitFailureInjector().name(), variant));
    }
    severalPendingCommits(
        run(
            byScenario,
            new SinkCommitFailureInjector().name(),
            SinkCommitFailureInjector.SEVERAL_PENDING));
  }

  /**
   * Each network fault is proven by the lab's proxy: the bytes a freeze held without a reset, the
   * connections a cut reset and the reconnect after it, the chunks latency delayed, the bytes a
   * throttle paced.
   */
  public static void assertNetworkEvidence(Map<String, RunRecord> byScenario) {
    String partition = NetworkPartitionInjector.NAME;
    Map<String, String> freeze = details(byScenario, partition, "default");
    assertThat(Long.parseLong(freeze.get("proxy_at_heal_bytes_held"))).isPositive();
    assertThat(freeze).containsEntry("proxy_at_heal_connections_reset", "0");
    assertThat(
            Long.parseLong(
                details(byScenario, partition, "one-way").get("proxy_at_heal_bytes_held")))
        .isPositive();
    RunRecord reset = run(byScenario, partition, "reset");
    assertThat(
            Long.parseLong(
                reset.faults().get(0).evidence().details().get("proxy_at_heal_connections_reset")))
        .isPositive();
    assertThat(reset.faults().get(0).recovery().details()).containsKey("reconnected_at");
    assertThat(
            Long.parseLong(
                details(byScenario, NetworkLatencyInjector.NAME, "default")
                    .get("proxy_at_heal_chunks_delayed")))
        .isPositive();
    assertThat(
            Long.parseLong(
                details(byScenario, NetworkBandwidthInjector.NAME, "default")
                    .get("proxy_at_heal_bytes_throttled")))
        .isPositive();
  }

  /**
   * The source server was killed and another process serves its data, started after the kill; the
   * change-log reader reconnected to it.
   */
  public static void assertSourceCrashEvidence(Map<String, RunRecord> byScenario) {
    RunRecord crash = run(byScenario, SourceCrashInjector.NAME, "default");
    Map<String, String> details = crash.faults().get(0).evidence().details();
    assertThat(details.get("new_pid")).isNotEqualTo(details.get("killed_pid"));
    assertThat(details).containsKeys("killed_at", "restarted_at", "server_uptime_s");
    assertThat(crash.faults().get(0).recovery().details())
        .containsKeys("reconnected_at", "reader_connection_id")
        // the server died under the writer, which reconnected and asked what had been committed
        .containsKey("writer_reconnections")
        .hasEntrySatisfying(
            "writer_reconnection_1", line -> assertThat(line).contains("lost the connection ("));
  }

  /** The job restored from its retained checkpoint is a new job, on a cluster in this JVM. */
  private static void clusterDies(Map<String, String> details) {
    long restored = Long.parseLong(details.get("restored_checkpoint_id"));
    long lastCompleted = Long.parseLong(details.get("old_job_last_completed_checkpoint_id"));
    assertThat(lastCompleted).isLessThanOrEqualTo(restored);
    assertThat(details.get("new_job_id")).isNotEqualTo(details.get("job_id_before"));
    assertThat(details.get("claim_boundary")).contains("MiniCluster", "JVM");
  }

  /** Flink's own reason for the failed checkpoint is recorded. */
  private static void checkpointFailureReason(
      Map<String, RunRecord> byScenario, String variant, String... reasons) {
    assertThat(details(byScenario, new CheckpointFailureInjector().name(), variant))
        .as(variant)
        .hasEntrySatisfying(
            "checkpoint_failure_reason",
            named -> {
              assertThat(named).matches("[A-Z_]+");
              assertThat(java.util.Arrays.stream(reasons).anyMatch(named::contains))
                  .as("%s names one of %s", named, java.util.Arrays.toString(reasons))
                  .isTrue();
            });
  }

  /** A commit that swapped the table's metadata and then failed is not committed again. */
  private static void commitNotRepeated(RunRecord record) {
    String scenario = record.scenario().name();
    assertThat(record.faults().get(0).evidence().details())
        .as(scenario)
        .containsKey("committed_snapshot_id");
    RecoveryEvidence recovery = record.faults().get(0).recovery();
    assertThat(recovery.details())
        .as(scenario)
        .containsEntry("target_checkpoint_commits_orders_current", "1")
        .containsEntry("target_checkpoint_commits_orders_changelog", "1")
        .containsEntry("checkpoints_committed_more_than_once_orders_current", "none")
        .containsEntry("checkpoints_committed_more_than_once_orders_changelog", "none");
  }

  /** The job dies between the commits of two pending checkpoints; each is committed once. */
  private static void severalPendingCommits(RunRecord record) {
    FaultEvidence evidence = record.faults().get(0).evidence();
    long held = Long.parseLong(evidence.details().get("held_checkpoint_id"));
    assertThat(evidence.details())
        .containsEntry("failed_commit_checkpoint_id", Long.toString(held + 1))
        .containsEntry("held_checkpoint_failure_reason", "FINALIZE_CHECKPOINT_FAILURE");
    assertThat(record.faults().get(0).recovery().details())
        .containsEntry("commits_of_checkpoint_" + held + "_orders_current", "1")
        .containsEntry("commits_of_checkpoint_" + (held + 1) + "_orders_current", "1")
        .containsEntry("checkpoints_committed_more_than_once_orders_current", "none")
        .containsEntry("checkpoints_committed_more_than_once_orders_changelog", "none");
  }

  private static Map<String, String> details(
      Map<String, RunRecord> byScenario, String fault, String variant) {
    return run(byScenario, fault, variant).faults().get(0).evidence().details();
  }

  private static RunRecord run(Map<String, RunRecord> byScenario, String fault, String variant) {
    // a fault's default variant runs as the scenario of the fault's bare name
    String scenario = variant.equals("default") ? fault : fault + ":" + variant;
    RunRecord record = byScenario.get(scenario);
    assertThat(record).as("the suite ran %s; it ran %s", scenario, byScenario.keySet()).isNotNull();
    assertThat(record.faults()).as(scenario).hasSize(1);
    return record;
  }
}
