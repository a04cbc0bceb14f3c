package io.reliabilitylab.faults;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import io.reliabilitylab.spi.fault.FaultContext;
import io.reliabilitylab.spi.fault.FaultEvidence;
import io.reliabilitylab.spi.fault.FaultHandle;
import io.reliabilitylab.spi.fault.FaultPosition;
import io.reliabilitylab.spi.fault.FaultSpec;
import io.reliabilitylab.spi.fault.FaultStatus;
import io.reliabilitylab.spi.pipeline.JobState;
import io.reliabilitylab.spi.pipeline.ReplicationSlotAccess;
import io.reliabilitylab.testkit.simulated.SimulatedPipeline;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code walsender-terminated} on a pipeline without a replication slot (a binlog source, say): it
 * is skipped naming what is missing, and nothing is touched. The termination itself runs on a real
 * PostgreSQL in the direct pipeline's PostgresSuiteIT.
 */
class WalSenderTerminationInjectorTest {

  @TempDir Path workDirectory;

  private final WalSenderTerminationInjector injector = new WalSenderTerminationInjector();

  @Test
  void needsTheSlotTheEndpointTheJobAndTheTablesAndFiresNowOnly() {
    assertThat(injector.requiredCapabilities()).contains(ReplicationSlotAccess.class).hasSize(4);
    assertThat(injector.supportedPositions()).containsExactly(FaultPosition.Kind.NOW);
    assertThat(injector.variants()).hasSize(1);
  }

  @Test
  void isSkippedOnAPipelineWithoutAReplicationSlotAndChangesNothing() throws Exception {
    SimulatedPipeline pipeline = SimulatedPipeline.running();
    try {
      FaultSpec spec =
          new FaultSpec(
              FaultIds.of(1, injector.name()), injector.name(), new FaultPosition.Now(), Map.of());
      FaultHandle handle =
          injector.inject(
              new FaultContext(
                  pipeline, spec, Clock.systemUTC(), Duration.ofSeconds(5), workDirectory));
      FaultEvidence evidence = handle.awaitFired(Duration.ofMillis(100));

      assertThat(evidence.status()).isEqualTo(FaultStatus.SKIPPED);
      assertThat(evidence.reason())
          .contains("pipeline 'simulated' lacks", "ReplicationSlotAccess")
          .doesNotContain("JobControl", "TableAccess");
      assertThat(handle.awaitRecovery(Duration.ofMillis(100)).recovered()).isFalse();
      assertThatCode(handle::close).doesNotThrowAnyException();
      assertThat(pipeline.restartCount()).isZero();
      assertThat(pipeline.state()).isEqualTo(JobState.RUNNING);
    } finally {
      pipeline.close();
    }
  }
}
