package io.reliabilitylab.harness.record;

import static org.assertj.core.api.Assertions.assertThat;

import io.reliabilitylab.harness.ExitCode;
import io.reliabilitylab.spi.check.CheckResult;
import io.reliabilitylab.spi.check.Evidence;
import io.reliabilitylab.spi.check.Verdict;
import io.reliabilitylab.spi.fault.FaultEvidence;
import io.reliabilitylab.spi.fault.FaultPosition;
import io.reliabilitylab.spi.fault.FaultSpec;
import io.reliabilitylab.spi.fault.FaultStatus;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

class VerdictsTest {

  private static final Instant AT = Instant.parse("2026-08-20T13:18:00Z");

  private static CheckResult passed(String name) {
    return CheckResult.passed(name, "ok", Evidence.NONE);
  }

  private static CheckResult failed(String name) {
    return CheckResult.failed(name, "2 rows missing", Evidence.NONE);
  }

  private static CheckResult inconclusive(String name) {
    return CheckResult.missingInput(name, "changelog");
  }

  private static FaultEvidence fault(String id, FaultStatus status) {
    FaultSpec spec = new FaultSpec(id, "task-failure", new FaultPosition.Now(), Map.of());
    return switch (status) {
      case FIRED ->
          new FaultEvidence(
              id,
              "task-failure",
              status,
              AT,
              AT,
              "killed a task",
              Map.of(),
              List.of("restart count 0 -> 1"),
              "");
      case SKIPPED -> FaultEvidence.skipped(spec, AT, "no TaskManagerControl");
      case NOT_PROVEN ->
          new FaultEvidence(
              id,
              "task-failure",
              status,
              AT,
              null,
              "killed a task",
              Map.of(),
              List.of(),
              "no restart was observed");
      case ARMED ->
          new FaultEvidence(
              id,
              "task-failure",
              status,
              AT,
              null,
              "armed at checkpoint 3",
              Map.of(),
              List.of(),
              "");
    };
  }

  @Test
  void everyExitCodeHasItsDocumentedNumber() {
    assertThat(ExitCode.PASSED.code()).isZero();
    assertThat(ExitCode.FAILED.code()).isEqualTo(1);
    assertThat(ExitCode.USAGE_OR_ENVIRONMENT.code()).isEqualTo(2);
    assertThat(ExitCode.INCONCLUSIVE.code()).isEqualTo(3);
    assertThat(ExitCode.of(Verdict.PASSED)).isEqualTo(ExitCode.PASSED);
    assertThat(ExitCode.of(Verdict.FAILED)).isEqualTo(ExitCode.FAILED);
    assertThat(ExitCode.of(Verdict.INCONCLUSIVE)).isEqualTo(ExitCode.INCONCLUSIVE);
  }

  @Nested
  class ExitCodeZero {
    @Test
    void whenEveryCheckPassedAndEveryFaultFired() {
      Summary summary =
          Verdicts.summarize(
              List.of(passed("snapshot-diff"), passed("event-id-audit")),
              List.of(fault("f1", FaultStatus.FIRED)),
              0,
              0);

      assertThat(summary.verdict()).isEqualTo(Verdict.PASSED);
      assertThat(summary.exitCode()).isEqualTo(ExitCode.PASSED);
      assertThat(summary.passed()).isTrue();
      assertThat(summary.reasons()).isEmpty();
      assertThat(summary.checksPassed()).isEqualTo(2);
      assertThat(summary.faultsFired()).isEqualTo(1);
    }

    @Test
    void whenAFaultWasSkippedTheRunIsInconclusiveNeverPassed() {
      Summary summary =
          Verdicts.summarize(
              List.of(passed("snapshot-diff")),
              List.of(fault("f1", FaultStatus.FIRED), fault("f2", FaultStatus.SKIPPED)),
              0,
              0);

      assertThat(summary.verdict()).isEqualTo(Verdict.INCONCLUSIVE);
      assertThat(summary.exitCode()).isEqualTo(ExitCode.INCONCLUSIVE);
      assertThat(summary.reasons())
          .containsExactly(
              "fault f2 (task-failure) was skipped, so the scenario did not happen:"
                  + " no TaskManagerControl");
      assertThat(summary.faultsSkipped()).isEqualTo(1);
      assertThat(summary.skippedFaults())
          .containsExactly("f2 (task-failure): no TaskManagerControl");
    }

    @Test
    void whenTheRunHadNoFaultButChecksPassed() {
      assertThat(Verdicts.exitCode(List.of(passed("snapshot-diff")), List.of()))
          .isEqualTo(ExitCode.PASSED);
    }
  }

  @Nested
  class ExitCodeOne {
    @Test
    void whenACheckFailed() {
      Summary summary =
          Verdicts.summarize(
              List.of(passed("event-id-audit"), failed("snapshot-diff")),
              List.of(fault("f1", FaultStatus.FIRED)),
              2,
              0);

      assertThat(summary.verdict()).isEqualTo(Verdict.FAILED);
      assertThat(summary.exitCode().code()).isEqualTo(1);
      assertThat(summary.failedChecks()).containsExactly("snapshot-diff");
      assertThat(summary.reasons()).containsExactly("check snapshot-diff failed: 2 rows missing");
      assertThat(summary.snapshotDiffCount()).isEqualTo(2);
    }

    @Test
    void whenAFaultWasNotProvenEvenThoughEveryCheckPassed() {
      Summary summary =
          Verdicts.summarize(
              List.of(passed("snapshot-diff")), List.of(fault("f1", FaultStatus.NOT_PROVEN)), 0, 0);

      assertThat(summary.exitCode()).isEqualTo(ExitCode.FAILED);
      assertThat(summary.notProvenFaults()).containsExactly("f1");
      assertThat(summary.reasons())
          .containsExactly(
              "fault f1 (task-failure) was not proven to have fired: no restart was observed");
    }

    @Test
    void whenAFaultWasLeftArmedBecauseItNeverFired() {
      assertThat(
              Verdicts.exitCode(
                  List.of(passed("snapshot-diff")), List.of(fault("f1", FaultStatus.ARMED))))
          .isEqualTo(ExitCode.FAILED);
    }

    @Test
    void whenACheckFailedAndAnotherWasInconclusive() {
      assertThat(
              Verdicts.verdict(
                  List.of(inconclusive("changelog-completeness"), failed("snapshot-diff")),
                  List.of()))
          .isEqualTo(Verdict.FAILED);
    }

    @Test
    void whenAnUnprovenFaultMeetsOnlyInconclusiveChecks() {
      assertThat(
              Verdicts.exitCode(
                  List.of(inconclusive("snapshot-diff")),
                  List.of(fault("f1", FaultStatus.NOT_PROVEN))))
          .isEqualTo(ExitCode.FAILED);
    }

    @Test
    void whenARunStoppedByAnErrorHadAlreadyFailedACheck() {
      Summary summary =
          Verdicts.aborted(
              "lost the connection to jdbc:mysql://lab:hunter2@db/x",
              List.of(failed("snapshot-diff")),
              List.of(),
              1,
              0);

      assertThat(summary.exitCode()).isEqualTo(ExitCode.FAILED);
      assertThat(summary.error()).doesNotContain("hunter2");
    }
  }

  @Nested
  class ExitCodeTwo {
    @Test
    void whenAUsageOrEnvironmentErrorStoppedTheRunBeforeAnyVerdict() {
      Summary summary =
          Verdicts.aborted("the source lacks binlog_format=ROW", List.of(), List.of(), 0, 0);

      assertThat(summary.exitCode().code()).isEqualTo(2);
      assertThat(summary.verdict()).isEqualTo(Verdict.INCONCLUSIVE);
      assertThat(summary.passed()).isFalse();
      assertThat(summary.reasons().get(0))
          .isEqualTo("stopped by an error: the source lacks binlog_format=ROW");
    }

    @Test
    void whenAnErrorStoppedARunWhoseChecksSoFarPassed() {
      assertThat(
              Verdicts.aborted(
                      "the database went away",
                      List.of(passed("snapshot-diff")),
                      List.of(fault("f1", FaultStatus.FIRED)),
                      0,
                      0)
                  .exitCode())
          .isEqualTo(ExitCode.USAGE_OR_ENVIRONMENT);
    }
  }

  @Nested
  class ExitCodeThree {
    @Test
    void whenNoCheckFailedButOneCouldNotDecide() {
      Summary summary =
          Verdicts.summarize(
              List.of(passed("snapshot-diff"), inconclusive("changelog-completeness")),
              List.of(fault("f1", FaultStatus.FIRED)),
              0,
              0);

      assertThat(summary.verdict()).isEqualTo(Verdict.INCONCLUSIVE);
      assertThat(summary.exitCode().code()).isEqualTo(3);
      assertThat(summary.inconclusiveChecks()).containsExactly("changelog-completeness");
      assertThat(summary.checksInconclusive()).isEqualTo(1);
    }

    @Test
    void whenNoCheckRanAtAll() {
      Summary summary =
          Verdicts.summarize(List.of(), List.of(fault("f1", FaultStatus.FIRED)), 0, 0);

      assertThat(summary.exitCode()).isEqualTo(ExitCode.INCONCLUSIVE);
      assertThat(summary.reasons()).containsExactly("no check was run, so nothing was shown");
    }

    @Test
    void whenEveryFaultWasSkippedAndACheckWasInconclusive() {
      assertThat(
              Verdicts.exitCode(
                  List.of(inconclusive("snapshot-diff")),
                  List.of(fault("f1", FaultStatus.SKIPPED))))
          .isEqualTo(ExitCode.INCONCLUSIVE);
    }
  }

  @Nested
  class Suites {
    @Test
    void aFailedRunOutranksAnErrorWhichOutranksAnInconclusiveRun() {
      assertThat(
              SuiteSummary.suiteExitCode(
                  List.of(
                      ExitCode.PASSED,
                      ExitCode.INCONCLUSIVE,
                      ExitCode.USAGE_OR_ENVIRONMENT,
                      ExitCode.FAILED)))
          .isEqualTo(ExitCode.FAILED);
      assertThat(
              SuiteSummary.suiteExitCode(
                  List.of(ExitCode.INCONCLUSIVE, ExitCode.USAGE_OR_ENVIRONMENT)))
          .isEqualTo(ExitCode.USAGE_OR_ENVIRONMENT);
      assertThat(SuiteSummary.suiteExitCode(List.of(ExitCode.PASSED, ExitCode.INCONCLUSIVE)))
          .isEqualTo(ExitCode.INCONCLUSIVE);
      assertThat(SuiteSummary.suiteExitCode(List.of(ExitCode.PASSED, ExitCode.PASSED)))
          .isEqualTo(ExitCode.PASSED);
      assertThat(SuiteSummary.suiteExitCode(List.of())).isEqualTo(ExitCode.INCONCLUSIVE);
    }
  }

  @Test
  void aBuilderStoppedByAnErrorRecordsExitCodeTwo() {
    RunRecord record =
        RunRecord.builder(SampleRecords.RUN_ID, SampleRecords.START)
            .finishedAt(SampleRecords.START)
            .environment(SampleRecords.environment())
            .scenario(ScenarioInfo.of("direct", "task-failure", 1, 10, 10))
            .error("MariaDB did not start within 60 s")
            .claimBoundary("Shows nothing: the environment did not come up.")
            .build();

    assertThat(record.summary().exitCode()).isEqualTo(ExitCode.USAGE_OR_ENVIRONMENT);
    assertThat(record.summary().error()).isEqualTo("MariaDB did not start within 60 s");
  }
}
