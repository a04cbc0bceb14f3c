package io.reliabilitylab.faults;

import static org.assertj.core.api.Assertions.assertThat;

import io.reliabilitylab.spi.data.DeliverySemantics;
import io.reliabilitylab.spi.fault.FaultContext;
import io.reliabilitylab.spi.fault.FaultEvidence;
import io.reliabilitylab.spi.fault.FaultHandle;
import io.reliabilitylab.spi.fault.FaultPosition;
import io.reliabilitylab.spi.fault.FaultSpec;
import io.reliabilitylab.spi.fault.FaultStatus;
import io.reliabilitylab.spi.fault.FaultVariant;
import io.reliabilitylab.spi.pipeline.BrokerControl;
import io.reliabilitylab.spi.pipeline.BrokerProcessControl;
import io.reliabilitylab.spi.pipeline.PipelineCapability;
import io.reliabilitylab.spi.pipeline.PipelineUnderTest;
import io.reliabilitylab.testkit.simulated.SimulatedPipeline;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What {@code broker-restart:crash} accepts as proof, on a simulated broker whose "process" reports
 * a pid, an exit status and a recovery log, and what it refuses.
 */
class BrokerCrashProofTest {

  private static final Duration WAIT = Duration.ofSeconds(10);
  private static final Map<String, String> CRASH =
      Map.of(BrokerRestartInjector.STOP, BrokerRestartInjector.SIGKILL, "down", "20");
  private static final String UNCLEAN =
      "INFO kafka.log.LogManager - Recovering 3 logs from /lab/kafka-logs since no clean shutdown"
          + " file was found";
  private static final String CLEAN =
      "INFO kafka.log.LogManager - Skipping recovery of 3 logs from /lab/kafka-logs since clean"
          + " shutdown file was found";

  @TempDir Path workDirectory;

  private final SimulatedPipeline simulated = SimulatedPipeline.runningWithBroker();

  @AfterEach
  void stop() {
    simulated.close();
  }

  @Test
  void theCrashVariantSigkillsAndNeedsABrokerProcess() {
    FaultVariant crash =
        new BrokerRestartInjector()
            .variants().stream()
                .filter(variant -> variant.name().equals("crash"))
                .findFirst()
                .orElseThrow();
    assertThat(crash.parameters()).containsEntry("stop", "sigkill");
    assertThat(crash.requiredCapabilities()).containsExactly(BrokerProcessControl.class);
    assertThat(crash.applicableTo(new BrokerRestartInjector(), simulated.capabilities())).isFalse();
  }

  @Test
  void aCrashIsProvenByTheExitStatusANewPidAndAnUncleanRecovery() throws Exception {
    CrashablePipeline pipeline = new CrashablePipeline(simulated, 137, List.of(UNCLEAN));

    try (FaultHandle handle = inject(pipeline, CRASH)) {
      FaultEvidence evidence = handle.awaitFired(WAIT);

      assertThat(evidence.status()).as("%s", evidence).isEqualTo(FaultStatus.FIRED);
      assertThat(evidence.details())
          .containsEntry("killed_pid", "100")
          .containsEntry("restarted_pid", "101")
          .containsEntry("exit_status", "137")
          .containsEntry("recovery_log", UNCLEAN)
          .containsEntry("claim_boundary", BrokerRestartInjector.CRASH_CLAIM_BOUNDARY);
      assertThat(evidence.proofs())
          .anySatisfy(p -> assertThat(p).contains("exit status 137"))
          .anySatisfy(p -> assertThat(p).contains("recovered its log uncleanly", UNCLEAN))
          .anySatisfy(p -> assertThat(p).contains("a new broker process 101 answers"));
      assertThat(simulated.broker().brokerUp()).isTrue();
      assertThat(handle.awaitRecovery(WAIT).recovered()).isTrue();
    }
  }

  @Test
  void anExitStatusOtherThanSigkillsRefutesTheCrash() throws Exception {
    CrashablePipeline pipeline = new CrashablePipeline(simulated, 143, List.of(UNCLEAN));

    try (FaultHandle handle = inject(pipeline, CRASH)) {
      FaultEvidence evidence = handle.awaitFired(WAIT);

      assertThat(evidence.status()).isEqualTo(FaultStatus.NOT_PROVEN);
      assertThat(evidence.reason()).contains("exited with status 143, not 137");
    }
  }

  @Test
  void aBrokerThatFoundACleanShutdownMarkerRefutesTheCrash() throws Exception {
    CrashablePipeline pipeline = new CrashablePipeline(simulated, 137, List.of(CLEAN));

    try (FaultHandle handle = inject(pipeline, CRASH)) {
      FaultEvidence evidence = handle.awaitFired(WAIT);

      assertThat(evidence.status()).isEqualTo(FaultStatus.NOT_PROVEN);
      assertThat(evidence.reason()).contains("found a clean-shutdown marker", CLEAN);
    }
  }

  @Test
  void withoutABrokerProcessTheCrashIsSkippedWithTheReason() throws Exception {
    try (FaultHandle handle = inject(simulated, CRASH)) {
      FaultEvidence evidence = handle.evidence();

      assertThat(evidence.status()).isEqualTo(FaultStatus.SKIPPED);
      assertThat(evidence.reason()).contains("BrokerProcessControl");
    }
    assertThat(simulated.broker().brokerUp()).isTrue();
  }

  private FaultHandle inject(PipelineUnderTest pipeline, Map<String, String> parameters)
      throws Exception {
    BrokerRestartInjector injector = new BrokerRestartInjector();
    FaultSpec spec =
        new FaultSpec(
            FaultIds.of(1, injector.name()), injector.name(), new FaultPosition.Now(), parameters);
    return injector.inject(
        new FaultContext(pipeline, spec, Clock.systemUTC(), WAIT, workDirectory));
  }

  /**
   * The simulated pipeline with a broker "process": a kill stops the simulated broker and reports
   * {@code exitStatus}; the next start runs as the next pid and "logs" {@code recovery}.
   */
  private static final class CrashablePipeline implements PipelineUnderTest, BrokerProcessControl {
    private final SimulatedPipeline delegate;
    private final int exitStatus;
    private final List<String> recovery;
    private long pid = 100;

    CrashablePipeline(SimulatedPipeline delegate, int exitStatus, List<String> recovery) {
      this.delegate = delegate;
      this.exitStatus = exitStatus;
      this.recovery = recovery;
    }

    @Override
    public long pid() {
      return pid;
    }

    @Override
    public int kill() throws Exception {
      delegate.capability(BrokerControl.class).orElseThrow().stop();
      pid++;
      return exitStatus;
    }

    @Override
    public boolean isAlive(long candidate) {
      return candidate == pid && delegate.broker().brokerUp();
    }

    @Override
    public List<String> recoveryLog() {
      return recovery;
    }

    @Override
    public String name() {
      return delegate.name();
    }

    @Override
    public DeliverySemantics semantics() {
      return delegate.semantics();
    }

    @Override
    public Set<Class<? extends PipelineCapability>> capabilities() {
      Set<Class<? extends PipelineCapability>> offered = new HashSet<>(delegate.capabilities());
      offered.add(BrokerProcessControl.class);
      return Set.copyOf(offered);
    }

    @Override
    public <T extends PipelineCapability> Optional<T> capability(Class<T> type) {
      return type == BrokerProcessControl.class
          ? Optional.of(type.cast(this))
          : delegate.capability(type);
    }

    @Override
    public Map<String, String> effectiveConfiguration() {
      return delegate.effectiveConfiguration();
    }

    @Override
    public Map<String, String> stackVersions() {
      return delegate.stackVersions();
    }

    @Override
    public void close() {
      delegate.close();
    }
  }
}
