package io.reliabilitylab.junit;

import static io.reliabilitylab.junit.LabAssertions.assertThat;
import static java.time.Duration.ofSeconds;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.reliabilitylab.record.RunRecord;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/**
 * Each assertion on run records passes on a record that should pass it and fails, showing the
 * record's verdict and reasons, on one that should not.
 */
class LabAssertionsTest {

  @Nested
  class TheVerdict {

    @Test
    void passedHoldsForARunThatPassed() {
      assertThat(SampleRuns.passing()).passed();
    }

    @Test
    void passedFailsForAFailedRunAndShowsWhy() {
      assertThatThrownBy(() -> assertThat(SampleRuns.lostRows()).passed())
          .isInstanceOf(AssertionError.class)
          .hasMessageContaining("Expected the run to pass")
          .hasMessageContaining("FAILED, exit code 1")
          .hasMessageContaining("check snapshot-diff failed: 2 rows missing from orders_current")
          .hasMessageContaining("changelog-completeness PASSED")
          .hasMessageContaining("task-failure (srl-fault-1-task-failure) FIRED at now");
    }

    @Test
    void passedFailsForARunStoppedByAnError() {
      assertThatThrownBy(() -> assertThat(SampleRuns.stoppedByAnError()).passed())
          .isInstanceOf(AssertionError.class)
          .hasMessageContaining("INCONCLUSIVE, exit code 2")
          .hasMessageContaining("stopped by an error: connection refused");
    }

    @Test
    void failedHoldsForAFailedRunAndNotForAPassedOne() {
      assertThat(SampleRuns.lostRows()).failed();
      assertThat(SampleRuns.notProven()).failed();
      assertThatThrownBy(() -> assertThat(SampleRuns.passing()).failed())
          .isInstanceOf(AssertionError.class)
          .hasMessageContaining("Expected the run to be FAILED")
          .hasMessageContaining("PASSED, exit code 0");
    }

    @Test
    void inconclusiveHoldsForASkippedFaultAndNotForAFailedRun() {
      assertThat(SampleRuns.skipped()).inconclusive();
      assertThat(SampleRuns.stoppedByAnError()).inconclusive();
      assertThatThrownBy(() -> assertThat(SampleRuns.lostRows()).inconclusive())
          .isInstanceOf(AssertionError.class)
          .hasMessageContaining("Expected the run to be INCONCLUSIVE")
          .hasMessageContaining("check snapshot-diff failed");
    }

    @Test
    void aDescriptionPrefixesTheMessage() {
      assertThatThrownBy(() -> assertThat(SampleRuns.lostRows()).as("nightly run").passed())
          .isInstanceOf(AssertionError.class)
          .hasMessageStartingWith("[nightly run]");
    }

    @Test
    void aMissingRecordFailsRatherThanThrowing() {
      assertThatThrownBy(() -> assertThat((RunRecord) null).passed())
          .isInstanceOf(AssertionError.class);
    }
  }

  @Nested
  class AFault {

    @Test
    void firedHoldsForAProvenFault() {
      assertThat(SampleRuns.passing()).fault(SampleRuns.FAULT).fired();
    }

    @Test
    void firedFailsForASkippedFaultAndShowsTheReason() {
      assertThatThrownBy(() -> assertThat(SampleRuns.skipped()).fault(SampleRuns.FAULT).fired())
          .isInstanceOf(AssertionError.class)
          .hasMessageContaining(
              "Expected fault task-failure (srl-fault-1-task-failure) to be FIRED")
          .hasMessageContaining("SKIPPED at now: the pipeline has no TaskManagerControl");
    }

    @Test
    void skippedHoldsForASkippedFaultAndNotForAFiredOne() {
      assertThat(SampleRuns.skipped()).fault(SampleRuns.FAULT).skipped();
      assertThatThrownBy(() -> assertThat(SampleRuns.passing()).fault(SampleRuns.FAULT).skipped())
          .isInstanceOf(AssertionError.class)
          .hasMessageContaining("to be SKIPPED");
    }

    @Test
    void notProvenHoldsForAnUnprovenFaultAndNotForAFiredOne() {
      assertThat(SampleRuns.notProven()).fault(SampleRuns.FAULT).notProven();
      assertThatThrownBy(() -> assertThat(SampleRuns.passing()).fault(SampleRuns.FAULT).notProven())
          .isInstanceOf(AssertionError.class)
          .hasMessageContaining("not to be proven");
    }

    @Test
    void recoveredWithinHoldsWhenRecoveryCameInTime() {
      assertThat(SampleRuns.passing()).fault(SampleRuns.FAULT).recoveredWithin(ofSeconds(3));
    }

    @Test
    void recoveredWithinFailsWhenRecoveryTookLonger() {
      assertThatThrownBy(
              () ->
                  assertThat(SampleRuns.passing())
                      .fault(SampleRuns.FAULT)
                      .recoveredWithin(ofSeconds(2)))
          .isInstanceOf(AssertionError.class)
          .hasMessageContaining("within 2000 ms, but it took 3000 ms")
          .hasMessageContaining("recovered in 3000 ms");
    }

    @Test
    void recoveredWithinFailsWhenRecoveryWasNotProven() {
      assertThatThrownBy(
              () ->
                  assertThat(SampleRuns.notRecovered())
                      .fault(SampleRuns.FAULT)
                      .recoveredWithin(ofSeconds(600)))
          .isInstanceOf(AssertionError.class)
          .hasMessageContaining("its recovery was not proven")
          .hasMessageContaining("no checkpoint completed within 120 s after the fault");
      assertThatThrownBy(
              () ->
                  assertThat(SampleRuns.skipped())
                      .fault(SampleRuns.FAULT)
                      .recoveredWithin(ofSeconds(600)))
          .isInstanceOf(AssertionError.class)
          .hasMessageContaining("(not awaited)");
    }

    @Test
    void firstCommitWithinHoldsInTimeAndFailsWhenLateOrMissing() {
      assertThat(SampleRuns.passing()).fault(SampleRuns.FAULT).firstCommitWithin(ofSeconds(3));
      assertThatThrownBy(
              () ->
                  assertThat(SampleRuns.passing())
                      .fault(SampleRuns.FAULT)
                      .firstCommitWithin(ofSeconds(1)))
          .isInstanceOf(AssertionError.class)
          .hasMessageContaining("within 1000 ms of fault task-failure")
          .hasMessageContaining("it took 3000 ms");
      assertThatThrownBy(
              () ->
                  assertThat(SampleRuns.notRecovered())
                      .fault(SampleRuns.FAULT)
                      .firstCommitWithin(ofSeconds(600)))
          .isInstanceOf(AssertionError.class)
          .hasMessageContaining("no commit after it is recorded");
    }

    @Test
    void detailsAreTheEvidenceOfTheFault() {
      assertThat(SampleRuns.passing())
          .fault(SampleRuns.FAULT)
          .details()
          .containsEntry("task_manager", "tm-1");
      assertThatThrownBy(
              () ->
                  assertThat(SampleRuns.passing())
                      .fault(SampleRuns.FAULT)
                      .details()
                      .containsKey("killed_connection_id"))
          .isInstanceOf(AssertionError.class)
          .hasMessageContaining("evidence details of fault srl-fault-1-task-failure");
    }

    @Test
    void recoveryDetailsNeedARecovery() {
      assertThat(SampleRuns.passing())
          .fault(SampleRuns.FAULT)
          .recoveryDetails()
          .containsEntry("job_id", "51dd090a");
      assertThatThrownBy(
              () -> assertThat(SampleRuns.skipped()).fault(SampleRuns.FAULT).recoveryDetails())
          .isInstanceOf(AssertionError.class)
          .hasMessageContaining("recovery was not awaited");
    }

    @Test
    void aFaultTheRunDidNotInjectFailsAndListsTheFaults() {
      assertThatThrownBy(() -> assertThat(SampleRuns.passing()).fault("checkpoint-failure"))
          .isInstanceOf(AssertionError.class)
          .hasMessageContaining("Expected a fault 'checkpoint-failure'")
          .hasMessageContaining("task-failure (srl-fault-1-task-failure) FIRED");
    }

    @Test
    void aFaultInjectedTwiceIsNamedByItsId() {
      assertThatThrownBy(() -> assertThat(SampleRuns.sameFaultTwice()).fault(SampleRuns.FAULT))
          .isInstanceOf(AssertionError.class)
          .hasMessageContaining("injected 'task-failure' 2 times")
          .hasMessageContaining("[srl-fault-1-task-failure, srl-fault-2-task-failure]");
      assertThat(SampleRuns.sameFaultTwice())
          .fault("srl-fault-2-task-failure")
          .recoveredWithin(ofSeconds(7));
      assertThatThrownBy(
              () ->
                  assertThat(SampleRuns.sameFaultTwice())
                      .fault("srl-fault-2-task-failure")
                      .recoveredWithin(ofSeconds(5)))
          .isInstanceOf(AssertionError.class)
          .hasMessageContaining("it took 7000 ms");
    }
  }

  @Nested
  class ACheck {

    @Test
    void passedHoldsForAPassedCheckAndFailsForAFailedOne() {
      assertThat(SampleRuns.passing()).check("snapshot-diff").passed();
      assertThatThrownBy(() -> assertThat(SampleRuns.lostRows()).check("snapshot-diff").passed())
          .isInstanceOf(AssertionError.class)
          .hasMessageContaining("Expected check snapshot-diff to be PASSED")
          .hasMessageContaining("snapshot-diff FAILED: 2 rows missing from orders_current");
    }

    @Test
    void failedHoldsForAFailedCheckAndFailsForAPassedOne() {
      assertThat(SampleRuns.lostRows()).check("snapshot-diff").failed();
      assertThatThrownBy(
              () -> assertThat(SampleRuns.lostRows()).check("baseline:snapshot-diff").failed())
          .isInstanceOf(AssertionError.class)
          .hasMessageContaining("Expected check baseline:snapshot-diff to be FAILED");
    }

    @Test
    void inconclusiveHoldsForACheckThatCouldNotDecide() {
      assertThat(SampleRuns.unreadableSink()).check("snapshot-diff").inconclusive();
      assertThatThrownBy(
              () -> assertThat(SampleRuns.passing()).check("snapshot-diff").inconclusive())
          .isInstanceOf(AssertionError.class)
          .hasMessageContaining("to be INCONCLUSIVE");
    }

    @Test
    void aCheckThatDidNotRunFailsAndListsTheChecks() {
      assertThatThrownBy(() -> assertThat(SampleRuns.passing()).check("dlq-integrity"))
          .isInstanceOf(AssertionError.class)
          .hasMessageContaining("Expected a check 'dlq-integrity'")
          .hasMessageContaining("baseline:snapshot-diff PASSED")
          .hasMessageContaining("changelog-completeness PASSED");
    }
  }

  @Nested
  class TheSnapshotDiff {

    @Test
    void holdsForTheCountTheFinalDiffFound() {
      assertThat(SampleRuns.passing()).snapshotDiff(0);
      assertThat(SampleRuns.lostRows()).snapshotDiff(2);
    }

    @Test
    void failsForAnotherCount() {
      assertThatThrownBy(() -> assertThat(SampleRuns.lostRows()).snapshotDiff(0))
          .isInstanceOf(AssertionError.class)
          .hasMessageContaining("Expected a snapshot diff of 0 rows, but it was 2")
          .hasMessageContaining("2 rows missing from orders_current");
    }

    @Test
    void failsWhenNoFinalDiffRanOrItCouldNotCompare() {
      assertThatThrownBy(() -> assertThat(SampleRuns.withoutSnapshotDiff()).snapshotDiff(0))
          .isInstanceOf(AssertionError.class)
          .hasMessageContaining("the final snapshot-diff did not run");
      assertThatThrownBy(() -> assertThat(SampleRuns.unreadableSink()).snapshotDiff(0))
          .isInstanceOf(AssertionError.class)
          .hasMessageContaining("could not compare (inconclusive: the sink could not be read)");
    }
  }
}
