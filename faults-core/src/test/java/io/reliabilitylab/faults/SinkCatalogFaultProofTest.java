package io.reliabilitylab.faults;

import static org.assertj.core.api.Assertions.assertThat;

import io.reliabilitylab.spi.data.DeliverySemantics;
import io.reliabilitylab.spi.fault.FaultContext;
import io.reliabilitylab.spi.fault.FaultEvidence;
import io.reliabilitylab.spi.fault.FaultHandle;
import io.reliabilitylab.spi.fault.FaultPosition;
import io.reliabilitylab.spi.fault.FaultSpec;
import io.reliabilitylab.spi.fault.FaultStatus;
import io.reliabilitylab.spi.pipeline.PipelineCapability;
import io.reliabilitylab.spi.pipeline.PipelineUnderTest;
import io.reliabilitylab.spi.pipeline.SinkCatalogControl;
import io.reliabilitylab.testkit.simulated.SimulatedPipeline;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What {@code sink-catalog-failure} accepts as proof from the catalog service, and what it refuses:
 * a service that still answers while it should be unreachable, and a lost response that never came.
 */
class SinkCatalogFaultProofTest {

  @TempDir Path workDirectory;

  private final SimulatedPipeline simulated = SimulatedPipeline.running();

  @AfterEach
  void stop() {
    simulated.close();
  }

  @Test
  void anOutageIsProvenByARefusedRequestAndAnAnswerAfterAndTheServiceListensAgain()
      throws Exception {
    FakeCatalog catalog = new FakeCatalog(true);
    try (FaultHandle handle = inject(catalog, Map.of("variant", "unreachable", "down", "50"))) {
      FaultEvidence evidence = handle.awaitFired(Duration.ofSeconds(10));

      assertThat(evidence.status()).as("%s", evidence).isEqualTo(FaultStatus.FIRED);
      assertThat(evidence.details())
          .containsEntry("catalog", FakeCatalog.ADDRESS)
          .containsEntry("down", "50 ms")
          .containsKeys("stopped_at", "started_at", "job_failures_since_outage");
      assertThat(evidence.proofs()).anySatisfy(p -> assertThat(p).contains("was refused"));
      assertThat(catalog.calls).containsExactly("stop", "start");
    }
  }

  @Test
  void aServiceThatStillAnswersWhileDownRefutesTheOutage() throws Exception {
    FakeCatalog catalog = new FakeCatalog(false);
    try (FaultHandle handle = inject(catalog, Map.of("variant", "unreachable", "down", "50"))) {
      FaultEvidence evidence = handle.awaitFired(Duration.ofSeconds(10));

      assertThat(evidence.status()).isEqualTo(FaultStatus.NOT_PROVEN);
      assertThat(evidence.reason()).contains("answered the lab while it was supposed to be");
      assertThat(catalog.calls).containsExactly("stop", "start");
    }
  }

  @Test
  void aLostResponseThatNeverCameIsNotProven() throws Exception {
    FakeCatalog catalog = new FakeCatalog(true);
    try (FaultHandle handle = inject(catalog, Map.of())) {
      FaultEvidence evidence = handle.awaitFired(Duration.ofMillis(600));

      assertThat(evidence.status()).isNotEqualTo(FaultStatus.FIRED);
      assertThat(catalog.calls)
          .singleElement()
          .asString()
          .startsWith("lose 1 commit response of orders_current: ")
          .contains(FaultIds.of(1, "sink-catalog-failure"));
    }
  }

  private FaultHandle inject(FakeCatalog catalog, Map<String, String> parameters) throws Exception {
    SinkCatalogFailureInjector injector = new SinkCatalogFailureInjector();
    FaultSpec spec =
        new FaultSpec(
            FaultIds.of(1, injector.name()), injector.name(), new FaultPosition.Now(), parameters);
    return injector.inject(
        new FaultContext(
            new WithCatalog(simulated, catalog),
            spec,
            Clock.systemUTC(),
            Duration.ofMillis(600),
            workDirectory));
  }

  /** The simulated pipeline with a catalog service of its own. */
  private record WithCatalog(SimulatedPipeline pipeline, SinkCatalogControl catalog)
      implements PipelineUnderTest {

    @Override
    public String name() {
      return pipeline.name();
    }

    @Override
    public DeliverySemantics semantics() {
      return pipeline.semantics();
    }

    @Override
    public Set<Class<? extends PipelineCapability>> capabilities() {
      Set<Class<? extends PipelineCapability>> all = new HashSet<>(pipeline.capabilities());
      all.add(SinkCatalogControl.class);
      return all;
    }

    @Override
    public <T extends PipelineCapability> Optional<T> capability(Class<T> type) {
      return type == SinkCatalogControl.class
          ? Optional.of(type.cast(catalog))
          : pipeline.capability(type);
    }

    @Override
    public Map<String, String> effectiveConfiguration() {
      return pipeline.effectiveConfiguration();
    }

    @Override
    public Map<String, String> stackVersions() {
      return pipeline.stackVersions();
    }

    @Override
    public void close() {
      pipeline.close();
    }
  }

  /** A catalog service that records what the fault asked of it; {@code obeys}: it really stops. */
  private static final class FakeCatalog implements SinkCatalogControl {
    static final String ADDRESS = "http://127.0.0.1:9";

    final List<String> calls = new ArrayList<>();
    private final boolean obeys;
    private volatile boolean listening = true;

    FakeCatalog(boolean obeys) {
      this.obeys = obeys;
    }

    @Override
    public String address() {
      return ADDRESS;
    }

    @Override
    public void loseCommitResponses(String table, int commits, String message) {
      calls.add("lose " + commits + " commit response of " + table + ": " + message);
    }

    @Override
    public List<LostCommitResponse> lostCommitResponses() {
      return List.of();
    }

    @Override
    public void stopListening() {
      calls.add("stop");
      listening = !obeys;
    }

    @Override
    public void startListening() {
      calls.add("start");
      listening = true;
    }

    @Override
    public boolean answers() {
      return listening;
    }
  }
}
