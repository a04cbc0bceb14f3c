package io.reliabilitylab.runner.phase;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.reliabilitylab.checks.sort.ReadOnce;
import io.reliabilitylab.record.RunRecord;
import io.reliabilitylab.runner.CatchUp;
import io.reliabilitylab.runner.Exercises;
import io.reliabilitylab.runner.RowSetDiff;
import io.reliabilitylab.spi.check.CheckContext;
import io.reliabilitylab.spi.check.CheckResult;
import io.reliabilitylab.spi.check.EvidenceSample;
import io.reliabilitylab.spi.check.ReconciliationCheck;
import io.reliabilitylab.spi.check.Verdict;
import io.reliabilitylab.spi.data.CommitConsistency;
import io.reliabilitylab.spi.data.DeliverySemantics;
import io.reliabilitylab.spi.data.RowSet;
import io.reliabilitylab.spi.data.TableSchema;
import io.reliabilitylab.spi.pipeline.PipelineUnderTest;
import io.reliabilitylab.spi.pipeline.RunEvidence;
import io.reliabilitylab.spi.pipeline.TableAccess;
import io.reliabilitylab.workload.oracle.Expectation;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * The final reconciliation: collects the pipeline's own evidence, runs every check at the point the
 * sink caught up, and records the checks' verdicts and the snapshots they judged. The same
 * reconciliation judges the baseline ({@link #reconcile}).
 */
@API(status = INTERNAL)
public final class Reconcile implements Phase {

  /** Differing keys the source self-check's message names; the rest are counted. */
  private static final int SELF_CHECK_KEYS = 5;

  @Override
  public String name() {
    return "reconcile";
  }

  @Override
  public Outcome run(Scenario scenario) throws Exception {
    RunEvidence.Observation evidence = EvidenceCollection.atEnd(scenario);
    Instant reconcileAt = scenario.clock().instant();
    Result result = reconcile(scenario, scenario.caughtUp(), scenario.expected(), evidence, "");
    scenario.timing("reconcile", reconcileAt);
    scenario.record().snapshots(scenario.running().snapshots());
    return result.sourceProblem() == null
        ? Outcome.proceed()
        : Outcome.aborted(result.sourceProblem());
  }

  /**
   * What a reconciliation found.
   *
   * @param results the checks' results as recorded, labelled
   * @param sourceProblem why the source could not serve as the reference, so that no check ran
   */
  record Result(List<CheckResult> results, @Nullable String sourceProblem) {

    /** Whether every check ran and passed: what a baseline must show before a fault. */
    boolean clean() {
      return sourceProblem == null
          && !results.isEmpty()
          && results.stream().allMatch(result -> result.verdict() == Verdict.PASSED);
    }
  }

  /**
   * Reconciles the sink at {@code point} with the source and with {@code expected}; records each
   * check's result with {@code label} before its name ({@code baseline:}, or none for the final
   * checks).
   */
  static Result reconcile(
      Scenario scenario,
      CatchUp.Point point,
      Expectation expected,
      RunEvidence.Observation evidence,
      String label)
      throws Exception {
    PipelineUnderTest pipeline = scenario.running().pipeline();
    TableAccess tables = scenario.running().tables();
    DeliverySemantics semantics = pipeline.semantics();
    Path spill = Files.createDirectories(scenario.directory().resolve("spill"));
    // Every check reads the same snapshots and source rows: read from their stores once.
    try (ReadOnce.Copies copies = new ReadOnce.Copies(spill.resolve("inputs"))) {
      RowSet sourceRows =
          ReadOnce.rows(
              scenario.source().rows(TableSchema.ORDERS, scenario.table().name()), copies);
      // The lab checks itself first: the source must hold what the oracle expects, or every
      // later verdict would compare against a wrong reference.
      CheckResult sourceMatchesOracle =
          RowSetDiff.of(semantics, expected.current(), sourceRows, spill);
      if (sourceMatchesOracle.verdict() != Verdict.PASSED) {
        return new Result(
            List.of(),
            "the source table does not hold the workload the oracle expects ("
                + sourceMatchesOracle.summary()
                + differingKeys(sourceMatchesOracle)
                + "): another writer changed it, or the source is misconfigured");
      }
      CheckContext context =
          CheckContext.builder(semantics)
              .commitConsistency(judgedConsistency(scenario, pipeline.commitConsistency()))
              .expectedCurrent(sourceRows)
              .actualCurrent(ReadOnce.rows(tables.current(point.current().snapshotId()), copies))
              .expectedChangelog(expected.changelog())
              .actualChangelog(
                  ReadOnce.changelog(tables.changelog(point.changelog().snapshotId()), copies))
              .checkpointId(point.checkpointId())
              .linkage(evidence.judgedLinkage())
              .dlqRecords(evidence.deadLetters())
              .workDirectory(spill)
              .build();
      return new Result(runChecks(scenario, context, label), null);
    }
  }

  /**
   * The claim the reader's-view check holds the commits to: the pipeline's, except that a prefix of
   * the source's changes is judged per key when an exercise's writer committed several of the
   * workload's transactions at once (their changes to different keys are in the order the writer
   * sent them, which the oracle does not know; whole transactions are still whole). Recorded when
   * it differs.
   */
  static CommitConsistency judgedConsistency(Scenario scenario, CommitConsistency claimed) {
    int grouped =
        scenario.plan().exercises().stream()
            .mapToInt(name -> Exercises.named(name).transactionsPerCommit())
            .max()
            .orElse(1);
    if (claimed != CommitConsistency.CHANGE_PREFIX || grouped <= 1) {
      return claimed;
    }
    scenario
        .record()
        .configuration(
            "commit.consistency.judged",
            "PER_KEY: an exercise's writer committed "
                + grouped
                + " transactions at once, in an order the oracle does not know");
    return CommitConsistency.PER_KEY;
  }

  /** The first differing keys of a diff, e.g. {@code "; unexpected order_id=7"}, capped. */
  static String differingKeys(CheckResult diff) {
    List<String> keys = new ArrayList<>();
    for (EvidenceSample sample : diff.evidence().samples()) {
      if (keys.size() == SELF_CHECK_KEYS) {
        break;
      }
      keys.add(sample.kind() + " " + sample.subject());
    }
    if (keys.isEmpty()) {
      return "";
    }
    long more = diff.evidence().count("diff_count") - keys.size();
    return "; " + String.join(", ", keys) + (more > 0 ? " and " + more + " more" : "");
  }

  private static List<CheckResult> runChecks(
      Scenario scenario, CheckContext context, String label) {
    PipelineUnderTest pipeline = scenario.running().pipeline();
    RunRecord.Builder record = scenario.record();
    List<CheckResult> results = new ArrayList<>();
    List<String> notApplicable = new ArrayList<>();
    for (ReconciliationCheck check : scenario.lab().checks()) {
      if (!label.isEmpty() && !check.requiredCapabilities().isEmpty()) {
        // The baseline reconciles the tables; a broker's offsets and dead letters are judged once,
        // at the end, when the job has had time to commit them (a Kafka source commits offsets
        // only after the checkpoint that holds them, and late on an idle topic).
        continue;
      }
      if (!pipeline.capabilities().containsAll(check.requiredCapabilities())) {
        notApplicable.add(
            check.name()
                + " (needs "
                + check.requiredCapabilities().stream()
                    .map(Class::getSimpleName)
                    .sorted()
                    .collect(Collectors.joining(", "))
                + ")");
        continue;
      }
      CheckResult result = check.check(context);
      CheckResult labelled =
          new CheckResult(
              label + result.check(), result.verdict(), result.summary(), result.evidence());
      record.check(labelled);
      results.add(labelled);
      if (label.isEmpty() && check.name().equals("snapshot-diff")) {
        record.snapshotDiffCount(result.evidence().count("diff_count"));
      }
    }
    if (!notApplicable.isEmpty()) {
      // Not a verdict: the pipeline has no such part (a direct pipeline has no broker).
      record.configuration("checks.not-applicable", String.join("; ", notApplicable));
    }
    return results;
  }
}
