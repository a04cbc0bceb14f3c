package io.reliabilitylab.record;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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
import org.jspecify.annotations.Nullable;
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

    private static final String HAZARD = SampleRecords.HAZARD;

    private static SuiteSummary suite(RunRecord... runs) {
      return SuiteSummary.of(
          "20260820T131700Z-0000abcd",
          SampleRecords.START,
          SampleRecords.START.plusSeconds(300),
          "reliability-lab run --pipeline direct --faults all",
          List.of(runs));
    }

    private static RunRecord run(
        int n, @Nullable String hazard, Verdict check, FaultStatus fault, @Nullable String error) {
      return SampleRecords.savepointRun(n, hazard, check, fault, error);
    }

    @Test
    void aKnownHazardThatFailedOnlyItsChecksIsDetectedAndCountsAsPassed() {
      RunRecord detected = run(1, HAZARD, Verdict.FAILED, FaultStatus.FIRED, null);
      SuiteSummary suite = suite(run(2, null, Verdict.PASSED, FaultStatus.FIRED, null), detected);

      SuiteSummary.Entry entry = suite.runs().get(1);
      assertThat(detected.summary().exitCode()).isEqualTo(ExitCode.FAILED);
      assertThat(entry.knownHazard()).isEqualTo(HAZARD);
      assertThat(entry.verdict()).isEqualTo(Verdict.FAILED);
      assertThat(entry.exitCode()).isEqualTo(ExitCode.FAILED);
      assertThat(entry.outcome()).isEqualTo("known-hazard-detected");
      assertThat(entry.countsAs()).isEqualTo(ExitCode.PASSED);
      assertThat(suite.runs().get(0).outcome()).isEqualTo("passed");
      assertThat(suite.exitCode()).isEqualTo(ExitCode.PASSED);
      assertThat(suite.verdict()).isEqualTo(Verdict.PASSED);
      assertThat(suite.passed()).isTrue();
      assertThat(suite.knownHazardsDetected()).containsExactly(entry);
    }

    @Test
    void aKnownHazardThatPassedWasNotReproducedAndCountsAsInconclusive() {
      SuiteSummary suite =
          suite(
              run(1, null, Verdict.PASSED, FaultStatus.FIRED, null),
              run(2, HAZARD, Verdict.PASSED, FaultStatus.FIRED, null));

      SuiteSummary.Entry entry = suite.runs().get(1);
      assertThat(entry.outcome()).isEqualTo("known-hazard-not-reproduced");
      assertThat(entry.exitCode()).isEqualTo(ExitCode.PASSED);
      assertThat(entry.countsAs()).isEqualTo(ExitCode.INCONCLUSIVE);
      assertThat(suite.exitCode()).isEqualTo(ExitCode.INCONCLUSIVE);
      assertThat(suite.passed()).isFalse();
      assertThat(suite.knownHazardsDetected()).isEmpty();
    }

    @Test
    void aKnownHazardRunWithAFaultNotProvenFailsTheSuite() {
      SuiteSummary suite = suite(run(1, HAZARD, Verdict.FAILED, FaultStatus.NOT_PROVEN, null));

      assertThat(suite.runs().get(0).outcome()).isEqualTo("failed");
      assertThat(suite.runs().get(0).countsAs()).isEqualTo(ExitCode.FAILED);
      assertThat(suite.exitCode()).isEqualTo(ExitCode.FAILED);
    }

    @Test
    void aKnownHazardRunWithASkippedFaultDidNotExerciseTheHazard() {
      SuiteSummary suite = suite(run(1, HAZARD, Verdict.FAILED, FaultStatus.SKIPPED, null));

      assertThat(suite.runs().get(0).outcome()).isEqualTo("failed");
      assertThat(suite.exitCode()).isEqualTo(ExitCode.FAILED);
    }

    @Test
    void aKnownHazardRunStoppedByAnErrorCountsAsItsOwnExitCode() {
      SuiteSummary failedThenStopped =
          suite(run(1, HAZARD, Verdict.FAILED, FaultStatus.FIRED, "the database went away"));
      SuiteSummary stopped =
          suite(run(1, HAZARD, Verdict.PASSED, FaultStatus.FIRED, "the database went away"));

      assertThat(failedThenStopped.runs().get(0).outcome()).isEqualTo("failed");
      assertThat(failedThenStopped.exitCode()).isEqualTo(ExitCode.FAILED);
      assertThat(stopped.runs().get(0).outcome()).isEqualTo("inconclusive");
      assertThat(stopped.runs().get(0).countsAs()).isEqualTo(ExitCode.USAGE_OR_ENVIRONMENT);
      assertThat(stopped.exitCode()).isEqualTo(ExitCode.USAGE_OR_ENVIRONMENT);
    }

    @Test
    void anInconclusiveKnownHazardRunStaysInconclusive() {
      SuiteSummary suite = suite(run(1, HAZARD, Verdict.INCONCLUSIVE, FaultStatus.FIRED, null));

      assertThat(suite.runs().get(0).outcome()).isEqualTo("inconclusive");
      assertThat(suite.exitCode()).isEqualTo(ExitCode.INCONCLUSIVE);
    }

    @Test
    void aRunWithoutHazardHasItsVerdictInLowerCaseAsOutcome() {
      SuiteSummary suite =
          suite(
              run(1, null, Verdict.PASSED, FaultStatus.FIRED, null),
              run(2, null, Verdict.FAILED, FaultStatus.FIRED, null),
              run(3, null, Verdict.INCONCLUSIVE, FaultStatus.FIRED, null));

      assertThat(suite.runs())
          .extracting(SuiteSummary.Entry::outcome)
          .containsExactly("passed", "failed", "inconclusive");
      assertThat(suite.runs()).extracting(SuiteSummary.Entry::knownHazard).containsOnlyNulls();
      assertThat(suite.runs())
          .allSatisfy(entry -> assertThat(entry.countsAs()).isEqualTo(entry.exitCode()));
      assertThat(suite.exitCode()).isEqualTo(ExitCode.FAILED);
    }

    @Test
    void aDetectedHazardDoesNotHideAnotherRunsFailure() {
      SuiteSummary suite =
          suite(
              run(1, HAZARD, Verdict.FAILED, FaultStatus.FIRED, null),
              run(2, null, Verdict.FAILED, FaultStatus.FIRED, null));

      assertThat(suite.knownHazardsDetected()).hasSize(1);
      assertThat(suite.exitCode()).isEqualTo(ExitCode.FAILED);
      assertThat(suite.verdict()).isEqualTo(Verdict.FAILED);
    }

    @Test
    void anEntryWhoseOutcomeContradictsItsVerdictOrHazardIsRefused() {
      assertThatThrownBy(
              () ->
                  new SuiteSummary.Entry(
                      SampleRecords.RUN_ID,
                      "direct",
                      "savepoint-restore",
                      null,
                      null,
                      Verdict.FAILED,
                      ExitCode.FAILED,
                      "known-hazard-detected",
                      null,
                      3))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("outcome 'known-hazard-detected' with verdict FAILED")
          .hasMessageContaining("no known hazard");
      assertThatThrownBy(
              () ->
                  new SuiteSummary.Entry(
                      SampleRecords.RUN_ID,
                      "direct",
                      "savepoint-restore",
                      null,
                      HAZARD,
                      Verdict.FAILED,
                      ExitCode.FAILED,
                      "passed",
                      null,
                      3))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("outcome 'passed' with verdict FAILED");
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
