package io.reliabilitylab.kit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.reliabilitylab.spi.fault.FaultContext;
import io.reliabilitylab.spi.fault.FaultEvidence;
import io.reliabilitylab.spi.fault.FaultPosition;
import io.reliabilitylab.spi.fault.FaultSpec;
import io.reliabilitylab.spi.fault.FaultStatus;
import io.reliabilitylab.testkit.simulated.SimulatedPipeline;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What {@link ProvenFault} promises beyond the proof: healing once, and a builder that checks. */
class ProvenFaultTest {

  private static final FaultSpec SPEC =
      new FaultSpec("srl-fault-1-sample", "sample", new FaultPosition.Now(), Map.of());
  private static final ProofRule PROVEN_AT_ONCE =
      (baseline, now) -> ProofVerdict.proven(now.at(), List.of("seen"), Map.of());

  @TempDir Path workDirectory;

  private final SimulatedPipeline pipeline = SimulatedPipeline.running();

  @AfterEach
  void stopPipeline() {
    pipeline.close();
  }

  @Test
  void healsOnceHoweverOftenItIsClosedAndKeepsAHealingProblemInTheEvidence() {
    AtomicInteger heals = new AtomicInteger();
    ProvenFault fault =
        ProvenFault.builder(context())
            .what("nothing")
            .proof(PROVEN_AT_ONCE)
            .healing(
                () -> {
                  heals.incrementAndGet();
                  throw new IllegalStateException("cannot");
                })
            .build();

    fault.close();
    fault.close();

    assertThat(heals).hasValue(1);
    assertThat(fault.evidence().status()).isEqualTo(FaultStatus.ARMED);
    assertThat(fault.evidence().details())
        .containsEntry("healing_problem", "java.lang.IllegalStateException: cannot");
  }

  @Test
  void healingOnceProvenHealsAsSoonAsTheFaultIsProvenAndNotAgainOnClose() throws Exception {
    AtomicInteger heals = new AtomicInteger();
    ProvenFault fault =
        ProvenFault.builder(context())
            .what("nothing")
            .proof(PROVEN_AT_ONCE)
            .healingOnceProven(heals::incrementAndGet)
            .build();
    assertThat(heals).hasValue(0);

    FaultEvidence fired = fault.awaitFired(Duration.ofSeconds(5));

    assertThat(fired.status()).isEqualTo(FaultStatus.FIRED);
    assertThat(heals).hasValue(1);
    fault.close();
    assertThat(heals).hasValue(1);
  }

  @Test
  void aRuleThatThrowsIsPendingAndTheProblemIsTheReason() throws Exception {
    ProvenFault fault =
        ProvenFault.builder(context())
            .what("nothing")
            .proof(
                (baseline, now) -> {
                  throw new IllegalStateException("no view");
                })
            .build();

    FaultEvidence evidence = fault.awaitFired(Duration.ofMillis(50));

    assertThat(evidence.status()).isEqualTo(FaultStatus.NOT_PROVEN);
    assertThat(evidence.reason()).contains("observing the pipeline failed").contains("no view");
  }

  @Test
  void theBuilderNeedsWhatAndAProof() {
    assertThatThrownBy(() -> ProvenFault.builder(context()).proof(PROVEN_AT_ONCE).build())
        .hasMessageContaining("what");
    assertThatThrownBy(() -> ProvenFault.builder(context()).what("x").build())
        .hasMessageContaining("rule");
  }

  private FaultContext context() {
    return new FaultContext(
        pipeline, SPEC, Clock.systemUTC(), Duration.ofSeconds(5), workDirectory);
  }
}
