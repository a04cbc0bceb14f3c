package io.reliabilitylab.junit;

import io.reliabilitylab.record.EnvironmentInfo;
import io.reliabilitylab.record.FaultRecord;
import io.reliabilitylab.record.RunRecord;
import io.reliabilitylab.record.ScenarioInfo;
import io.reliabilitylab.spi.check.CheckResult;
import io.reliabilitylab.spi.check.Evidence;
import io.reliabilitylab.spi.fault.FaultEvidence;
import io.reliabilitylab.spi.fault.FaultPosition;
import io.reliabilitylab.spi.fault.FaultSpec;
import io.reliabilitylab.spi.fault.FaultStatus;
import io.reliabilitylab.spi.fault.RecoveryEvidence;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/** Run records built by hand, each the way a real run of its kind ends. */
final class SampleRuns {

  static final String FAULT = "task-failure";
  static final String FAULT_ID = "srl-fault-1-task-failure";
  static final Instant START = Instant.parse("2026-08-20T13:17:52Z");
  static final Instant FAULT_AT = START.plusSeconds(30);

  private SampleRuns() {}

  /** Every check passed; the fault fired and the pipeline recovered in 3 s. */
  static RunRecord passing() {
    return run().check(baselineDiff()).check(finalDiff(0)).check(completeness()).build();
  }

  /** The fault fired and recovered, but two rows are missing from the sink. */
  static RunRecord lostRows() {
    return run()
        .check(baselineDiff())
        .check(finalDiff(2))
        .check(completeness())
        .snapshotDiffCount(2)
        .build();
  }

  /** The fault fired; the job came back running but never committed again. */
  static RunRecord notRecovered() {
    RunRecord.Builder run = record();
    FaultSpec spec = spec(FAULT_ID);
    RecoveryEvidence stuck =
        new RecoveryEvidence(
            false, FAULT_AT, FAULT_AT.plusSeconds(1), null, null, null, null, 1, Map.of());
    return run.fault(FaultRecord.of(spec, fired(spec), stuck))
        .check(baselineDiff())
        .check(
            CheckResult.failed(
                "recovery:" + FAULT_ID,
                "no checkpoint completed within 120 s after the fault",
                Evidence.NONE))
        .build();
  }

  /** The pipeline lacks what the fault needs: skipped, so inconclusive although checks pass. */
  static RunRecord skipped() {
    FaultSpec spec = spec(FAULT_ID);
    return record()
        .fault(
            FaultRecord.of(
                spec,
                FaultEvidence.skipped(spec, FAULT_AT, "the pipeline has no TaskManagerControl"),
                null))
        .check(baselineDiff())
        .check(finalDiff(0))
        .build();
  }

  /** The fault was injected, but nothing showed that it took effect. */
  static RunRecord notProven() {
    FaultSpec spec = spec(FAULT_ID);
    FaultEvidence unproven =
        new FaultEvidence(
            spec.id(),
            FAULT,
            FaultStatus.NOT_PROVEN,
            FAULT_AT,
            null,
            "terminated a TaskManager",
            Map.of(),
            List.of(),
            "the restart count did not change within 120 s");
    return record()
        .fault(FaultRecord.of(spec, unproven, null))
        .check(baselineDiff())
        .check(finalDiff(0))
        .build();
  }

  /** The final snapshot diff could not read the sink. */
  static RunRecord unreadableSink() {
    return run()
        .check(baselineDiff())
        .check(
            CheckResult.inconclusive(
                "snapshot-diff", "inconclusive: the sink could not be read", Evidence.NONE))
        .build();
  }

  /** The source went away before any check: an environment error. */
  static RunRecord stoppedByAnError() {
    return record().error("connection refused: the source has no server").build();
  }

  /** No snapshot diff at all ran, only the changelog audit. */
  static RunRecord withoutSnapshotDiff() {
    return run().check(completeness()).build();
  }

  /** The same fault injected twice, both proven. */
  static RunRecord sameFaultTwice() {
    FaultSpec first = spec(FAULT_ID);
    FaultSpec second = spec("srl-fault-2-task-failure");
    return record()
        .fault(FaultRecord.of(first, fired(first), recovered(FAULT_AT, 3)))
        .fault(FaultRecord.of(second, fired(second), recovered(FAULT_AT.plusSeconds(10), 7)))
        .check(finalDiff(0))
        .build();
  }

  /** A record with the fault fired and recovered in 3 s, and no checks yet. */
  private static RunRecord.Builder run() {
    FaultSpec spec = spec(FAULT_ID);
    return record().fault(FaultRecord.of(spec, fired(spec), recovered(FAULT_AT, 3)));
  }

  private static RunRecord.Builder record() {
    return RunRecord.builder("20260820T131752Z-2aea4b71", START)
        .command(List.of("junit", "SampleRuns#run"))
        .environment(EnvironmentInfo.capture("unit test", false))
        .scenario(ScenarioInfo.of("direct", FAULT, 42, 500, 500))
        .claimBoundary("Built by hand for the assertions' tests; shows nothing about a pipeline.")
        .finishedAt(START.plusSeconds(90));
  }

  private static FaultSpec spec(String id) {
    return new FaultSpec(id, FAULT, new FaultPosition.Now(), Map.of());
  }

  private static FaultEvidence fired(FaultSpec spec) {
    return new FaultEvidence(
        spec.id(),
        FAULT,
        FaultStatus.FIRED,
        FAULT_AT,
        FAULT_AT.plusMillis(200),
        "terminated TaskManager tm-1",
        Map.of("task_manager", "tm-1", "replacement_task_manager", "tm-2"),
        List.of("tm-1 left the cluster"),
        "");
  }

  /** Running after 1 s, a checkpoint after 2 s, the first commit {@code seconds} after it. */
  private static RecoveryEvidence recovered(Instant at, long seconds) {
    return new RecoveryEvidence(
        true,
        at,
        at.plusSeconds(1),
        7L,
        at.plusSeconds(2),
        4_318_176_490_047_650_439L,
        at.plusSeconds(seconds),
        1,
        Map.of("job_id", "51dd090a"));
  }

  private static CheckResult baselineDiff() {
    return CheckResult.passed(
        "baseline:snapshot-diff", "orders_current equals the source: 250 rows", Evidence.NONE);
  }

  private static CheckResult finalDiff(long diffCount) {
    Evidence evidence = Evidence.builder().count("diff_count", diffCount).build();
    return diffCount == 0
        ? CheckResult.passed(
            "snapshot-diff", "orders_current equals the source: 500 rows", evidence)
        : CheckResult.failed(
            "snapshot-diff", diffCount + " rows missing from orders_current", evidence);
  }

  private static CheckResult completeness() {
    return CheckResult.passed(
        "changelog-completeness", "every change is in orders_changelog once", Evidence.NONE);
  }
}
