package io.reliabilitylab.pipeline.direct;

import static io.reliabilitylab.pipeline.direct.RunRecordChecks.check;
import static org.assertj.core.api.Assertions.assertThat;

import io.reliabilitylab.harness.cli.ReliabilityLab;
import io.reliabilitylab.record.ExitCode;
import io.reliabilitylab.record.RunRecord;
import io.reliabilitylab.record.RunRecordReader;
import io.reliabilitylab.spi.check.CheckResult;
import io.reliabilitylab.spi.check.Verdict;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The lab catches a broken pipeline. The direct job with its current table written in append mode
 * that drops its deletes and update-befores (variant {@code broken-current-append}) keeps rows the
 * source deleted or replaced, with or without faults: every scenario is reported FAILED, and the
 * fault scenario stops after its baseline, since a fault on an unclean baseline would prove
 * nothing. The fault-sensitive controls pass their clean baseline and fail only under the fault of
 * their class, with evidence that names event ids: a changelog sink that commits a restored
 * checkpoint's files again (task, coordinator, checkpoint and sink-commit failures), a source whose
 * state is not restored (savepoint restore), and a binlog reader that never reconnects (source
 * crash). A current-table sink that commits its equality deletes a snapshot ahead of its rows is
 * right after every checkpoint and fails the reader's-view check alone; so does one that commits
 * each checkpoint one writer at a time while the job claims to keep source transactions whole.
 */
class NegativeControlIT {

  @TempDir Path out;

  @Test
  void aCurrentTableThatLosesDeletesIsReportedFailedNamingTheKeys() throws Exception {
    Map<String, RunRecord> runs =
        run("job.variant=broken-current-append", "--faults", "task-exception:default");

    RunRecord baseline = runs.get("baseline");
    assertThat(baseline.effectiveConfiguration())
        .containsEntry("job.variant", "broken-current-append");
    assertThat(baseline.summary().verdict()).isEqualTo(Verdict.FAILED);
    // Iceberg's writer folds repeated keys inside one checkpoint, so what survives are the rows the
    // dropped deletes and update-befores should have removed: stale and extra rows.
    CheckResult diff = check(baseline, "snapshot-diff");
    assertThat(diff.verdict()).isEqualTo(Verdict.FAILED);
    assertThat(diff.evidence().count("diff_count")).isPositive();
    assertThat(diff.evidence().samples()).as("samples naming the differing keys").isNotEmpty();
    assertThat(baseline.summary().snapshotDiffCount()).isPositive();

    RunRecord faulted = runs.get("task-exception");
    assertThat(faulted.summary().verdict()).isEqualTo(Verdict.FAILED);
    assertThat(faulted.summary().failedChecks()).contains("baseline:snapshot-diff");
    assertThat(faulted.summary().error()).contains("baseline did not reconcile clean");
  }

  @Test
  void aCurrentTableThatCommitsItsDeletesAheadOfItsRowsFailsTheReaderViewCheckAlone()
      throws Exception {
    // A snapshot shows the split only when a checkpoint updates keys an earlier one committed: how
    // many do depends on timing, so the clean run and a fault run (more commits) are both judged.
    Map<String, RunRecord> runs =
        run("job.variant=broken-current-split-commit", "--faults", "task-exception:default");

    assertThat(runs.get("baseline").effectiveConfiguration())
        .containsEntry("job.variant", "broken-current-split-commit");
    List<RunRecord> caught =
        runs.values().stream().filter(run -> run.summary().verdict() == Verdict.FAILED).toList();
    assertThat(caught).as("runs failed in %s", runs.keySet()).isNotEmpty();
    for (RunRecord run : caught) {
      // The table after each checkpoint is right: only the snapshot between its two commits is not.
      assertThat(run.summary().failedChecks())
          .as(run.scenario().name())
          .isNotEmpty()
          .allMatch(name -> name.equals("reader-view") || name.equals("baseline:reader-view"));
      CheckResult view =
          run.checks().stream()
              .filter(c -> c.check().endsWith("reader-view"))
              .filter(c -> c.verdict() == Verdict.FAILED)
              .findFirst()
              .orElseThrow();
      assertThat(view.evidence().count("vanished")).isPositive();
      assertThat(view.evidence().samples())
          .isNotEmpty()
          .allSatisfy(
              sample -> {
                assertThat(sample.subject()).startsWith("order_id=");
                assertThat(sample.note()).containsPattern("^snapshot \\d+ \\(");
              });
    }
  }

  @Test
  void aChangelogSinkThatRecommitsARestoredCheckpointFailsUnderEveryRestartingFault()
      throws Exception {
    Map<String, RunRecord> runs =
        run(
            "job.variant=broken-changelog-at-least-once",
            "--faults",
            // Each fault fires well inside its segment, so that the checkpoint restored holds
            // changelog files to commit again also on a loaded machine: the throw and the lost
            // TaskManager two thirds in (the throw's default is the 100th change; the loss's,
            // now, restores a checkpoint of the baseline, whose files a slow reconciliation let
            // two checkpoints clear), the others at the fourth checkpoint after their arming (the
            // default, the second, can restore one whose barrier preceded every change of the
            // segment when the job lags its writer)
            "task-exception:default@position=after-event:200,"
                + "task-failure:default@position=after-event:200,"
                + "coordinator-failure:default@position=at-checkpoint:+4,"
                + "checkpoint-failure:restart-sync@position=at-checkpoint:+4,"
                + "sink-commit-failure:fail-after-swap@position=at-checkpoint:+4");

    assertThat(runs.get("baseline").summary().verdict()).isEqualTo(Verdict.PASSED);
    for (String fault :
        List.of(
            "task-exception",
            "task-failure",
            "coordinator-failure",
            "checkpoint-failure:restart-sync",
            "sink-commit-failure:fail-after-swap")) {
      RunRecord faulted = runs.get(fault);
      assertThat(faulted).as("scenario %s in %s", fault, runs.keySet()).isNotNull();
      assertThat(faulted.summary().verdict()).as(fault).isEqualTo(Verdict.FAILED);
      assertThat(faulted.summary().failedChecks())
          .as("%s fails on its duplicates alone, after a clean baseline", fault)
          .contains("event-id-audit")
          .noneMatch(name -> name.startsWith("baseline:") || name.startsWith("recovery:"));
      CheckResult audit = check(faulted, "event-id-audit");
      assertThat(audit.evidence().count("duplicate_occurrence_count")).as(fault).isPositive();
      assertThat(check(faulted, "changelog-completeness").evidence().samples())
          .as("%s: samples naming the duplicated event ids", fault)
          .isNotEmpty()
          .allSatisfy(sample -> assertThat(sample.subject()).startsWith("event_id="));
    }
  }

  @Test
  void aSourceWhoseStateIsNotRestoredFailsUnderASavepointRestoreOnly() throws Exception {
    Map<String, RunRecord> runs =
        run("job.variant=broken-source-not-restored", "--faults", "savepoint-restore:default");

    assertThat(runs.get("baseline").summary().verdict()).isEqualTo(Verdict.PASSED);
    RunRecord restored = runs.get("savepoint-restore");
    assertThat(restored.summary().verdict()).isEqualTo(Verdict.FAILED);
    // the restored job snapshots the table again: every key's current row read a second time
    CheckResult completeness = check(restored, "changelog-completeness");
    assertThat(completeness.verdict()).isEqualTo(Verdict.FAILED);
    assertThat(completeness.evidence().count("unexpected")).isPositive();
    assertThat(completeness.evidence().samples()).isNotEmpty();
  }

  @Test
  void aBinlogReaderThatNeverReconnectsFailsUnderASourceCrashAConnectionLossAndAResetLink()
      throws Exception {
    Map<String, RunRecord> runs =
        run(
            "job.variant=broken-source-no-reconnect",
            "--faults",
            "source-crash,source-connection-loss,network-partition:reset",
            "--catch-up-timeout",
            "10s");

    assertThat(runs.get("baseline").summary().verdict()).isEqualTo(Verdict.PASSED);
    for (String scenario :
        List.of("source-crash", "source-connection-loss", "network-partition:reset")) {
      RunRecord cut = runs.get(scenario);
      assertThat(cut.summary().verdict()).as(scenario).isEqualTo(Verdict.FAILED);
      assertThat(cut.faults().get(0).evidence().status().name()).isEqualTo("FIRED");
      CheckResult catchUp = check(cut, "catch-up");
      assertThat(catchUp.summary())
          .as("%s: names envelopes that never arrived", scenario)
          .containsPattern("lacks the last envelope of \\d+ of \\d+ keys, e\\.g\\. \\[");
    }
  }

  @Test
  void aSinkThatCommitsOneWriterAtATimeTearsTransactionsTheAlignedJobKeepsWhole() throws Exception {
    // The job claims whole transactions: its sink commits each checkpoint one writer at a time.
    Map<String, RunRecord> broken =
        run(
            out.resolve("per-writer"),
            600,
            ExitCode.FAILED,
            "job.variant=broken-current-commit-per-writer",
            "--pipeline-option",
            "job.transactions=aligned",
            "--checkpoint-interval",
            "200ms");
    RunRecord torn = broken.get("baseline");
    assertThat(torn.effectiveConfiguration())
        .containsEntry("commit.consistency", "TRANSACTION_PREFIX");
    assertThat(torn.summary().failedChecks())
        .as("every key passes through states the source held: only the claim is broken")
        .containsExactly("reader-view");
    CheckResult view = check(torn, "reader-view");
    assertThat(view.evidence().count("torn_transaction")).isPositive();
    assertThat(view.evidence().samples())
        .isNotEmpty()
        .allSatisfy(
            sample ->
                assertThat(sample.note())
                    .containsPattern("^snapshot \\d+ \\(.*\\) shows order_id=")
                    .contains("a torn transaction"));

    // The faithful aligner holds each transaction in its checkpointed state across a restart.
    Map<String, RunRecord> aligned =
        run(
            out.resolve("aligned"),
            600,
            ExitCode.PASSED,
            "job.transactions=aligned",
            "--checkpoint-interval",
            "100ms",
            "--faults",
            "task-exception:default");
    for (RunRecord run : aligned.values()) {
      assertThat(run.summary().verdict()).as(run.scenario().name()).isEqualTo(Verdict.PASSED);
      assertThat(check(run, "reader-view").evidence().facts())
          .containsEntry(
              "commit_consistency",
              "TRANSACTION_PREFIX: every commit judged as one prefix of the source's log");
      assertThat(run.effectiveConfiguration())
          .hasEntrySatisfying(
              "source.transaction-fence",
              fence ->
                  assertThat(fence)
                      .startsWith("srl_fence.transaction_fence: ")
                      .contains("beats written every 100 ms"));
    }
    assertThat(aligned).containsKey("task-exception");
  }

  /** Runs the direct pipeline with the pipeline option and arguments given; its runs by name. */
  private Map<String, RunRecord> run(String pipelineOption, String... arguments) throws Exception {
    return run(out, 600, ExitCode.FAILED, pipelineOption, arguments);
  }

  private Map<String, RunRecord> run(
      Path records, int events, ExitCode expected, String pipelineOption, String... arguments)
      throws Exception {
    List<String> command =
        new java.util.ArrayList<>(
            List.of(
                "run",
                "--pipeline",
                "direct",
                "--pipeline-option",
                pipelineOption,
                "--events",
                Integer.toString(events),
                "--seed",
                "5",
                "--no-report",
                "--out",
                records.toString()));
    command.addAll(List.of(arguments));
    StringWriter stdout = new StringWriter();
    int exit =
        new ReliabilityLab(
                new PrintWriter(stdout),
                new PrintWriter(new StringWriter()),
                getClass().getClassLoader())
            .execute(command.toArray(String[]::new));
    assertThat(exit).as("exit code; stdout:%n%s", stdout).isEqualTo(expected.code());
    return RunRecordReader.readDirectory(records).stream()
        .collect(Collectors.toMap(r -> r.scenario().name(), Function.identity()));
  }
}
