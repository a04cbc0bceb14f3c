package io.reliabilitylab.faults;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.reliabilitylab.kit.ProofVerdict;
import io.reliabilitylab.kit.ProvenFault;
import io.reliabilitylab.kit.RecoveryStart;
import io.reliabilitylab.spi.fault.FaultContext;
import io.reliabilitylab.spi.fault.FaultPosition;
import io.reliabilitylab.spi.fault.FaultSpec;
import io.reliabilitylab.spi.fault.FaultStatus;
import io.reliabilitylab.spi.fault.RecoveryEvidence;
import io.reliabilitylab.testkit.simulated.SimulatedPipeline;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The kit's {@link ProvenFault.Builder#recoveryFrom}: recovery counts from the moment the fault
 * waited for (a reconnect), so the checkpoint and the commit that show it come after that moment.
 */
class RecoveryStartTest {

  private static final Duration WAIT = Duration.ofSeconds(10);
  private static final Duration NOTICED_LATER = Duration.ofMillis(400);

  @TempDir Path workDirectory;

  private final SimulatedPipeline pipeline = SimulatedPipeline.running();

  @AfterEach
  void stop() {
    pipeline.close();
  }

  @Test
  void theCheckpointAndTheCommitFollowTheMomentRecoveryStarted() throws Exception {
    ProvenFault fault =
        provenNow()
            .recoveryFrom(
                (faultAt, timeout) -> {
                  Thread.sleep(NOTICED_LATER.toMillis());
                  return new RecoveryStart.Moment(Instant.now(), Map.of("reconnected", "yes"));
                })
            .build();

    assertThat(fault.awaitFired(WAIT).status()).isEqualTo(FaultStatus.FIRED);
    RecoveryEvidence recovery = fault.awaitRecovery(WAIT);

    assertThat(recovery.recovered()).isTrue();
    assertThat(recovery.details()).containsEntry("reconnected", "yes");
    Instant startedBy = recovery.faultAt().plus(NOTICED_LATER);
    assertThat(recovery.firstCheckpointAt()).isAfter(startedBy);
    assertThat(recovery.firstCommitAt()).isAfter(startedBy);
  }

  @Test
  void aRecoveryThatNeverStartsSaysWhatDidNotHappen() throws Exception {
    ProvenFault fault =
        provenNow()
            .recoveryFrom(
                (faultAt, timeout) -> {
                  throw new TimeoutException("no new connection within " + timeout);
                })
            .build();

    assertThatThrownBy(() -> fault.awaitRecovery(WAIT))
        .isInstanceOf(TimeoutException.class)
        .hasMessageContaining("fault FIRED at")
        .hasMessageContaining("no new connection within");
  }

  private ProvenFault.Builder provenNow() {
    FaultSpec spec =
        new FaultSpec(
            FaultIds.of(1, "reconnecting"), "reconnecting", new FaultPosition.Now(), Map.of());
    return ProvenFault.builder(
            new FaultContext(pipeline, spec, Clock.systemUTC(), WAIT, workDirectory))
        .what("dropped a connection")
        .proof((baseline, now) -> ProofVerdict.proven(now.at(), List.of("dropped"), Map.of()));
  }
}
