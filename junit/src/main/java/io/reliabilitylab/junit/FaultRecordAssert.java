package io.reliabilitylab.junit;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.reliabilitylab.record.FaultRecord;
import io.reliabilitylab.record.RunRecord;
import io.reliabilitylab.spi.fault.FaultStatus;
import io.reliabilitylab.spi.fault.RecoveryEvidence;
import java.time.Duration;
import java.util.Objects;
import org.apiguardian.api.API;
import org.assertj.core.api.AbstractAssert;
import org.assertj.core.api.Assertions;
import org.assertj.core.api.MapAssert;

/** Assertions on one fault of a run, from {@link RunRecordAssert#fault(String)}. */
@API(status = EXPERIMENTAL)
public final class FaultRecordAssert extends AbstractAssert<FaultRecordAssert, FaultRecord> {

  private final RunRecord run;

  FaultRecordAssert(FaultRecord fault, RunRecord run) {
    super(fault, FaultRecordAssert.class);
    this.run = run;
  }

  /** The fault is proven to have fired: the evidence holds the time and at least one proof. */
  public FaultRecordAssert fired() {
    return hasStatus(FaultStatus.FIRED);
  }

  /** The fault was not injected, because the pipeline lacks a capability or fault point. */
  public FaultRecordAssert skipped() {
    return hasStatus(FaultStatus.SKIPPED);
  }

  /** The fault could not be proven to have fired (including one still armed at the end). */
  public FaultRecordAssert notProven() {
    isNotNull();
    FaultStatus status = actual.evidence().status();
    if (status != FaultStatus.NOT_PROVEN && status != FaultStatus.ARMED) {
      throw failure("%nExpected fault %s not to be proven, but %s", describe(), runDescription());
    }
    return this;
  }

  /**
   * The pipeline is proven to have recovered — the job running, a checkpoint and a sink commit
   * after the fault — within {@code limit} of the fault taking effect.
   */
  public FaultRecordAssert recoveredWithin(Duration limit) {
    Objects.requireNonNull(limit, "limit");
    isNotNull();
    RecoveryEvidence recovery = actual.recovery();
    Duration took = actual.recoveryTime();
    if (recovery == null || !recovery.recovered() || took == null) {
      throw failure(
          "%nExpected fault %s to be recovered from within %d ms, but its recovery was not proven"
              + " (%s) in %s",
          describe(),
          limit.toMillis(),
          recovery == null ? "not awaited" : recovery,
          runDescription());
    }
    if (took.compareTo(limit) > 0) {
      throw failure(
          "%nExpected fault %s to be recovered from within %d ms, but it took %d ms in %s",
          describe(), limit.toMillis(), took.toMillis(), runDescription());
    }
    return this;
  }

  /**
   * The sink committed within {@code limit} of the fault taking effect: the figure a user of the
   * tables sees, however long the job took to report running.
   */
  public FaultRecordAssert firstCommitWithin(Duration limit) {
    Objects.requireNonNull(limit, "limit");
    isNotNull();
    RecoveryEvidence recovery = actual.recovery();
    Duration took = recovery == null ? null : recovery.timeToFirstCommit();
    if (took == null) {
      throw failure(
          "%nExpected the sink to commit within %d ms of fault %s, but no commit after it is"
              + " recorded in %s",
          limit.toMillis(), describe(), runDescription());
    }
    if (took.compareTo(limit) > 0) {
      throw failure(
          "%nExpected the sink to commit within %d ms of fault %s, but it took %d ms in %s",
          limit.toMillis(), describe(), took.toMillis(), runDescription());
    }
    return this;
  }

  /** AssertJ assertions on the details of the fault's evidence (targets and observations). */
  public MapAssert<String, String> details() {
    isNotNull();
    return Assertions.assertThat(actual.evidence().details())
        .as("evidence details of fault %s", actual.evidence().faultId());
  }

  /** AssertJ assertions on the details of the recovery; fails if recovery was not awaited. */
  public MapAssert<String, String> recoveryDetails() {
    isNotNull();
    RecoveryEvidence recovery = actual.recovery();
    if (recovery == null) {
      throw failure(
          "%nExpected fault %s to have recovery evidence, but recovery was not awaited in %s",
          describe(), runDescription());
    }
    return Assertions.assertThat(recovery.details())
        .as("recovery details of fault %s", actual.evidence().faultId());
  }

  private FaultRecordAssert hasStatus(FaultStatus expected) {
    isNotNull();
    if (actual.evidence().status() != expected) {
      throw failure("%nExpected fault %s to be %s, but %s", describe(), expected, runDescription());
    }
    return this;
  }

  private String describe() {
    return actual.evidence().fault() + " (" + actual.evidence().faultId() + ")";
  }

  private String runDescription() {
    return RunDescription.of(run);
  }
}
