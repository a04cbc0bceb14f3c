package io.reliabilitylab.faults;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import io.reliabilitylab.spi.fault.FaultContext;
import io.reliabilitylab.spi.fault.FaultEvidence;
import io.reliabilitylab.spi.fault.FaultHandle;
import io.reliabilitylab.spi.fault.FaultInjector;
import io.reliabilitylab.spi.fault.FaultPosition;
import io.reliabilitylab.spi.fault.FaultSpec;
import io.reliabilitylab.spi.fault.FaultStatus;
import io.reliabilitylab.spi.pipeline.JobState;
import io.reliabilitylab.testkit.simulated.SimulatedPipeline;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.stream.Stream;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Every built-in fault, and each of its variants, keeps the testkit's contract. */
class BuiltInFaultContractTest {

  @Nested
  class TaskFailure extends LiveContract {
    @Override
    protected FaultInjector createInjector() {
      return new TaskFailureInjector();
    }
  }

  @Nested
  class TaskFailureWithReplacementBefore extends LiveContract {
    @Override
    protected FaultInjector createInjector() {
      return new TaskFailureInjector();
    }

    @Override
    protected FaultSpec spec(FaultInjector injector) {
      return withParameters(super.spec(injector), Map.of("replacement", "before"));
    }
  }

  @Nested
  class TaskException extends LiveContract {
    @Override
    protected FaultInjector createInjector() {
      return new TaskExceptionInjector();
    }
  }

  @Nested
  class TaskExceptionInTheSnapshotPhase extends LiveContract {
    @Override
    protected FaultInjector createInjector() {
      return new TaskExceptionInjector();
    }

    @Override
    protected FaultSpec spec(FaultInjector injector) {
      return at(super.spec(injector), new FaultPosition.SnapshotPhase(20));
    }
  }

  @Nested
  class TaskExceptionAtACheckpoint extends LiveContract {
    @Override
    protected FaultInjector createInjector() {
      return new TaskExceptionInjector();
    }

    @Override
    protected FaultSpec spec(FaultInjector injector) {
      return at(super.spec(injector), new FaultPosition.AtCheckpoint(2));
    }
  }

  @Nested
  class CoordinatorFailure extends LiveContract {
    @Override
    protected FaultInjector createInjector() {
      return new CoordinatorFailureInjector();
    }
  }

  @Nested
  class CheckpointFailureToleratedAsync extends LiveContract {
    @Override
    protected FaultInjector createInjector() {
      return new CheckpointFailureInjector();
    }
  }

  @Nested
  class CheckpointFailureExpired extends LiveContract {
    @Override
    protected FaultInjector createInjector() {
      return new CheckpointFailureInjector();
    }

    @Override
    protected FaultSpec spec(FaultInjector injector) {
      return withParameters(super.spec(injector), Map.of("variant", "expired"));
    }
  }

  @Nested
  class CheckpointFailureRestartSync extends LiveContract {
    @Override
    protected FaultInjector createInjector() {
      return new CheckpointFailureInjector();
    }

    @Override
    protected FaultSpec spec(FaultInjector injector) {
      return withParameters(super.spec(injector), Map.of("variant", "restart-sync"));
    }
  }

  @Nested
  class SavepointRestore extends LiveContract {
    @Override
    protected FaultInjector createInjector() {
      return new SavepointRestoreInjector();
    }
  }

  @Nested
  class SinkCommitFailureBeforeSwap extends LiveContract {
    @Override
    protected FaultInjector createInjector() {
      return new SinkCommitFailureInjector();
    }

    @Override
    protected FaultSpec spec(FaultInjector injector) {
      return at(super.spec(injector), new FaultPosition.AroundCommit(2, false));
    }
  }

  @Nested
  class SinkCommitFailureAfterSwap extends LiveContract {
    @Override
    protected FaultInjector createInjector() {
      return new SinkCommitFailureInjector();
    }

    @Override
    protected FaultSpec spec(FaultInjector injector) {
      return at(super.spec(injector), new FaultPosition.AroundCommit(2, true));
    }
  }

  // each named variant, as the lab runs it

  @Nested
  class TaskExceptionDefaultVariant extends VariantContract {
    @Override
    protected FaultInjector createInjector() {
      return new TaskExceptionInjector();
    }

    @Override
    String variant() {
      return "default";
    }
  }

  @Nested
  class TaskExceptionSnapshotPhaseVariant extends VariantContract {
    @Override
    protected FaultInjector createInjector() {
      return new TaskExceptionInjector();
    }

    @Override
    String variant() {
      return "snapshot-phase";
    }
  }

  @Nested
  class TaskFailureDefaultVariant extends VariantContract {
    @Override
    protected FaultInjector createInjector() {
      return new TaskFailureInjector();
    }

    @Override
    String variant() {
      return "default";
    }
  }

  @Nested
  class TaskFailureSnapshotPhaseVariant extends VariantContract {
    @Override
    protected FaultInjector createInjector() {
      return new TaskFailureInjector();
    }

    @Override
    String variant() {
      return "snapshot-phase";
    }
  }

  @Nested
  class CoordinatorFailureDefaultVariant extends VariantContract {
    @Override
    protected FaultInjector createInjector() {
      return new CoordinatorFailureInjector();
    }

    @Override
    String variant() {
      return "default";
    }
  }

  @Nested
  class CoordinatorFailureClusterDiesVariant extends VariantContract {
    @Override
    protected FaultInjector createInjector() {
      return new CoordinatorFailureInjector();
    }

    @Override
    String variant() {
      return "cluster-dies";
    }
  }

  @Nested
  class SavepointRestoreOlderSavepointVariant extends VariantContract {
    @Override
    protected FaultInjector createInjector() {
      return new SavepointRestoreInjector();
    }

    @Override
    String variant() {
      return "older-savepoint";
    }
  }

  @Nested
  class CheckpointFailureDefaultVariant extends VariantContract {
    @Override
    protected FaultInjector createInjector() {
      return new CheckpointFailureInjector();
    }

    @Override
    String variant() {
      return "default";
    }
  }

  @Nested
  class CheckpointFailureExpiredVariant extends VariantContract {
    @Override
    protected FaultInjector createInjector() {
      return new CheckpointFailureInjector();
    }

    @Override
    String variant() {
      return "expired";
    }
  }

  @Nested
  class CheckpointFailureRestartSyncVariant extends VariantContract {
    @Override
    protected FaultInjector createInjector() {
      return new CheckpointFailureInjector();
    }

    @Override
    String variant() {
      return "restart-sync";
    }
  }

  @Nested
  class SavepointRestoreDefaultVariant extends VariantContract {
    @Override
    protected FaultInjector createInjector() {
      return new SavepointRestoreInjector();
    }

    @Override
    String variant() {
      return "default";
    }
  }

  @Nested
  class SavepointRestoreFromAnOlderSavepoint extends LiveContract {
    @Override
    protected FaultInjector createInjector() {
      return new SavepointRestoreInjector();
    }

    @Override
    protected FaultSpec spec(FaultInjector injector) {
      return withParameters(super.spec(injector), Map.of("from", "older-savepoint"));
    }
  }

  @Nested
  class SinkCommitFailureDefaultVariant extends VariantContract {
    @Override
    protected FaultInjector createInjector() {
      return new SinkCommitFailureInjector();
    }

    @Override
    String variant() {
      return "default";
    }
  }

  @Nested
  class SinkCommitFailureAfterSwapVariant extends VariantContract {
    @Override
    protected FaultInjector createInjector() {
      return new SinkCommitFailureInjector();
    }

    @Override
    String variant() {
      return "fail-after-swap";
    }
  }

  @Nested
  class SinkCommitFailureCommitStateUnknownVariant extends VariantContract {
    @Override
    protected FaultInjector createInjector() {
      return new SinkCommitFailureInjector();
    }

    @Override
    String variant() {
      return "commit-state-unknown";
    }
  }

  @Nested
  class SinkCommitFailureSeveralPendingVariant extends VariantContract {
    @Override
    protected FaultInjector createInjector() {
      return new SinkCommitFailureInjector();
    }

    @Override
    String variant() {
      return "several-pending";
    }
  }

  // the broker path's faults, on a pipeline with a broker

  @Nested
  class PoisonMessage extends LiveContract {
    PoisonMessage() {
      super(SimulatedPipeline::runningWithBroker);
    }

    @Override
    protected FaultInjector createInjector() {
      return new PoisonMessageInjector();
    }
  }

  @Nested
  class PoisonMessageDefaultVariant extends VariantContract {
    PoisonMessageDefaultVariant() {
      super(SimulatedPipeline::runningWithBroker);
    }

    @Override
    protected FaultInjector createInjector() {
      return new PoisonMessageInjector();
    }

    @Override
    String variant() {
      return "default";
    }
  }

  @Nested
  class PoisonMessageUnrepairedVariant extends VariantContract {
    PoisonMessageUnrepairedVariant() {
      super(SimulatedPipeline::runningWithBroker);
    }

    @Override
    protected FaultInjector createInjector() {
      return new PoisonMessageInjector();
    }

    @Override
    String variant() {
      return "unrepaired";
    }
  }

  @Nested
  class BrokerRestart extends LiveContract {
    BrokerRestart() {
      super(SimulatedPipeline::runningWithBroker);
    }

    @Override
    protected FaultInjector createInjector() {
      return new BrokerRestartInjector();
    }

    // down for milliseconds, not the default seconds: the simulation reconnects at once
    @Override
    protected FaultSpec spec(FaultInjector injector) {
      return withParameters(super.spec(injector), Map.of("down", "20"));
    }
  }

  @Nested
  class DuplicateRedelivery extends LiveContract {
    DuplicateRedelivery() {
      super(SimulatedPipeline::runningWithBroker);
    }

    @Override
    protected FaultInjector createInjector() {
      return new DuplicateRedeliveryInjector();
    }
  }

  @Nested
  class DuplicateRedeliveryDefaultVariant extends VariantContract {
    DuplicateRedeliveryDefaultVariant() {
      super(SimulatedPipeline::runningWithBroker);
    }

    @Override
    protected FaultInjector createInjector() {
      return new DuplicateRedeliveryInjector();
    }

    @Override
    String variant() {
      return "default";
    }
  }

  /**
   * Beyond the kit's bare pipeline: on a running pipeline without a broker or a replication slot
   * (the direct path's capabilities on a binlog source), each broker fault and the walsender fault
   * is skipped naming what is missing, and nothing is touched.
   */
  @Nested
  class FaultsWithoutTheirCapability {

    @TempDir Path workDirectory;

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("io.reliabilitylab.faults.BuiltInFaultContractTest#faultsNeedingMore")
    void areSkippedNamingTheMissingCapabilityAndChangeNothing(
        String fault, Map<String, String> parameters, String missing) throws Exception {
      FaultInjector injector =
          ServiceLoader.load(FaultInjector.class).stream()
              .map(ServiceLoader.Provider::get)
              .filter(i -> i.name().equals(fault))
              .findFirst()
              .orElseThrow();
      SimulatedPipeline pipeline = SimulatedPipeline.running();
      try {
        FaultSpec spec =
            new FaultSpec(FaultIds.of(1, fault), fault, new FaultPosition.Now(), parameters);
        FaultHandle handle =
            injector.inject(
                new FaultContext(
                    pipeline, spec, Clock.systemUTC(), Duration.ofSeconds(5), workDirectory));
        FaultEvidence evidence = handle.awaitFired(Duration.ofMillis(100));

        assertThat(evidence.status()).isEqualTo(FaultStatus.SKIPPED);
        assertThat(evidence.reason()).contains("pipeline 'simulated' lacks", missing);
        assertThat(evidence.reason()).doesNotContain("JobControl", "TableAccess");
        assertThat(handle.awaitRecovery(Duration.ofMillis(100)).recovered()).isFalse();
        assertThatCode(
                () -> {
                  handle.close();
                  handle.close();
                })
            .doesNotThrowAnyException();
        assertThat(pipeline.jobId()).isEqualTo("job-1");
        assertThat(pipeline.restartCount()).isZero();
        assertThat(pipeline.state()).isEqualTo(JobState.RUNNING);
      } finally {
        pipeline.close();
      }
    }
  }

  static Stream<Arguments> faultsNeedingMore() {
    return Stream.of(
        Arguments.of(
            "poison-message", Map.of(), "BrokerControl, DeadLetterQueue, SourceConnectorControl"),
        Arguments.of(
            "poison-message",
            Map.of("repair", "false"),
            "BrokerControl, DeadLetterQueue, SourceConnectorControl"),
        Arguments.of("broker-restart", Map.of("down", "20"), "BrokerControl"),
        Arguments.of(
            "duplicate-redelivery", Map.of(), "ReplayDeduplication, SourceConnectorControl"),
        Arguments.of(WalSenderTerminationInjector.NAME, Map.of(), "ReplicationSlotAccess"),
        Arguments.of(NetworkPartitionInjector.NAME, Map.of(), "SourceNetworkLink"),
        Arguments.of(NetworkPartitionInjector.NAME, Map.of("link", "broker"), "BrokerNetworkLink"),
        Arguments.of(NetworkLatencyInjector.NAME, Map.of(), "SourceNetworkLink"),
        Arguments.of(NetworkBandwidthInjector.NAME, Map.of(), "SourceNetworkLink"),
        Arguments.of(
            SourceCrashInjector.NAME, Map.of(), "SourceEndpointAccess, SourceProcessControl"),
        Arguments.of(SourceConnectionLossInjector.NAME, Map.of(), "SourceEndpointAccess"));
  }

  static FaultSpec withParameters(FaultSpec spec, Map<String, String> parameters) {
    return new FaultSpec(spec.id(), spec.fault(), spec.position(), parameters);
  }

  static FaultSpec at(FaultSpec spec, FaultPosition position) {
    return new FaultSpec(spec.id(), spec.fault(), position, spec.parameters());
  }
}
