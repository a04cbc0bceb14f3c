package io.reliabilitylab.faults;

import static org.assertj.core.api.Assertions.assertThat;

import io.reliabilitylab.kit.Observation;
import io.reliabilitylab.kit.ProofVerdict;
import io.reliabilitylab.spi.pipeline.CheckpointInfo;
import io.reliabilitylab.spi.pipeline.JobFailure;
import io.reliabilitylab.spi.pipeline.JobState;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import org.jspecify.annotations.Nullable;

class ProofsProperties {

  private static final String ID = "srl-fault-7-task-exception";
  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

  @Property
  void aFailoverIsProvenOnlyWithItsIdAndExactlyTheExpectedRestarts(
      @ForAll @LongRange(min = 0, max = 5) long restartsBefore,
      @ForAll @IntRange(min = 0, max = 4) int restartsAdded,
      @ForAll @IntRange(min = 1, max = 2) int expected,
      @ForAll boolean idInHistory,
      @ForAll boolean unrelatedFailure)
      throws Exception {
    Observation baseline = observation(restartsBefore, List.of(), List.of(), null);
    List<JobFailure> history = new ArrayList<>();
    if (unrelatedFailure) {
      history.add(failure("java.net.SocketTimeoutException: Read timed out"));
    }
    if (idInHistory) {
      history.add(failure(ID + ": fault injected at point 'operator'"));
    }
    Observation now = observation(restartsBefore + restartsAdded, history, List.of(), null);

    ProofVerdict verdict = Proofs.failoverCarrying(ID, expected).judge(baseline, now);

    if (restartsAdded > expected) {
      assertThat(verdict).isInstanceOf(ProofVerdict.Refuted.class);
      assertThat(((ProofVerdict.Refuted) verdict).reason())
          .contains("rose by " + restartsAdded, "explains exactly " + expected);
    } else if (idInHistory && restartsAdded == expected) {
      assertThat(verdict).isInstanceOf(ProofVerdict.Proven.class);
      assertThat(((ProofVerdict.Proven) verdict).proofs())
          .anySatisfy(proof -> assertThat(proof).contains(ID));
    } else {
      assertThat(verdict).isInstanceOf(ProofVerdict.Pending.class);
    }
  }

  @Property
  void aToleratedCheckpointFailureIsRefutedByAnyRestart(
      @ForAll @IntRange(min = 0, max = 3) int restartsAdded,
      @ForAll @LongRange(min = 1, max = 5) long failedCheckpoint,
      @ForAll boolean laterCheckpointCompleted)
      throws Exception {
    Observation baseline = observation(0, List.of(), List.of(), null);
    List<CheckpointInfo> checkpoints = new ArrayList<>();
    checkpoints.add(checkpoint(failedCheckpoint, "FAILED", "Asynchronous task checkpoint failed."));
    if (laterCheckpointCompleted) {
      checkpoints.add(checkpoint(failedCheckpoint + 1, "COMPLETED", null));
    }
    Observation now = observation(restartsAdded, List.of(), checkpoints, T0.plusSeconds(1));

    ProofVerdict verdict = Proofs.toleratedCheckpointFailure(ID, 1).judge(baseline, now);

    if (restartsAdded > 0) {
      assertThat(verdict).isInstanceOf(ProofVerdict.Refuted.class);
    } else if (laterCheckpointCompleted) {
      assertThat(verdict).isInstanceOf(ProofVerdict.Proven.class);
      assertThat(((ProofVerdict.Proven) verdict).details())
          .containsEntry("checkpoint_id", Long.toString(failedCheckpoint))
          .containsEntry("failure_reason", "Asynchronous task checkpoint failed.");
    } else {
      assertThat(verdict).isInstanceOf(ProofVerdict.Pending.class);
    }
  }

  private static Observation observation(
      long restarts,
      List<JobFailure> history,
      List<CheckpointInfo> checkpoints,
      @Nullable Instant pointFiredAt) {
    return new Observation(
        T0, "job-1", JobState.RUNNING, restarts, history, checkpoints, null, null, pointFiredAt);
  }

  private static JobFailure failure(String message) {
    return new JobFailure(T0, "java.lang.RuntimeException", message, "map", null, false);
  }

  private static CheckpointInfo checkpoint(long id, String status, @Nullable String reason) {
    return new CheckpointInfo(id, status, T0, T0.plusMillis(5), null, reason, null, false);
  }
}
