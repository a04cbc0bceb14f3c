package io.reliabilitylab.spi.fault;

import static org.assertj.core.api.Assertions.assertThat;

import io.reliabilitylab.spi.data.DeliverySemantics;
import io.reliabilitylab.spi.pipeline.PipelineCapability;
import io.reliabilitylab.spi.pipeline.PipelineUnderTest;
import io.reliabilitylab.spi.pipeline.SourceEndpoint;
import io.reliabilitylab.spi.pipeline.SourceEndpointAccess;
import io.reliabilitylab.spi.secret.Credentials;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

class FaultContextTest {

  private static final SourceEndpoint SOURCE =
      new SourceEndpoint(
          "jdbc:mysql://127.0.0.1:3306/lab",
          "127.0.0.1",
          3306,
          "lab",
          "orders",
          Credentials.of("lab_cdc", "Fault-Context-Pw-1"));

  private static final FaultSpec SPEC =
      new FaultSpec("srl-fault-1-x", "x", new FaultPosition.Now(), Map.of());

  private static FaultContext contextOn(PipelineUnderTest pipeline) {
    return new FaultContext(pipeline, SPEC, Clock.systemUTC(), Duration.ofSeconds(1), Path.of("."));
  }

  @Test
  void exposesTheSourceOfAPipelineThatOffersIt() {
    assertThat(contextOn(new Pipeline(true)).source()).contains(SOURCE);
  }

  @Test
  void isEmptyForAPipelineThatDoesNot() {
    assertThat(contextOn(new Pipeline(false)).source()).isEmpty();
  }

  /** A pipeline that offers its source endpoint, or nothing at all. */
  private record Pipeline(boolean offersSource) implements PipelineUnderTest, SourceEndpointAccess {

    @Override
    public SourceEndpoint sourceEndpoint() {
      return SOURCE;
    }

    @Override
    public String name() {
      return "test";
    }

    @Override
    public DeliverySemantics semantics() {
      return DeliverySemantics.EXACTLY_ONCE;
    }

    @Override
    public Set<Class<? extends PipelineCapability>> capabilities() {
      return offersSource ? Set.of(SourceEndpointAccess.class) : Set.of();
    }

    @Override
    public <T extends PipelineCapability> Optional<T> capability(Class<T> type) {
      return capabilities().contains(type) ? Optional.of(type.cast(this)) : Optional.empty();
    }

    @Override
    public Map<String, String> effectiveConfiguration() {
      return Map.of();
    }

    @Override
    public Map<String, String> stackVersions() {
      return Map.of();
    }

    @Override
    public void close() {}
  }
}
