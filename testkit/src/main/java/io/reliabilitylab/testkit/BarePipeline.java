package io.reliabilitylab.testkit;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.reliabilitylab.spi.data.DeliverySemantics;
import io.reliabilitylab.spi.pipeline.PipelineCapability;
import io.reliabilitylab.spi.pipeline.PipelineUnderTest;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.apiguardian.api.API;

/**
 * A pipeline that offers no capabilities at all: a fault injected into it cannot fire, so it must
 * be skipped with the missing capability named (or refused with an exception that names it).
 *
 * <p>{@code FaultContext context = new FaultContext(BarePipeline.create(), spec, clock, timeout,
 * dir);}
 *
 * @param name the name it reports
 * @param semantics the delivery guarantee it claims
 */
@API(status = EXPERIMENTAL)
public record BarePipeline(String name, DeliverySemantics semantics) implements PipelineUnderTest {

  public BarePipeline {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(semantics, "semantics");
  }

  /** A bare pipeline named {@code bare} that claims exactly-once. */
  public static BarePipeline create() {
    return new BarePipeline("bare", DeliverySemantics.EXACTLY_ONCE);
  }

  @Override
  public Set<Class<? extends PipelineCapability>> capabilities() {
    return Set.of();
  }

  @Override
  public <T extends PipelineCapability> Optional<T> capability(Class<T> type) {
    return Optional.empty();
  }

  @Override
  public Map<String, String> effectiveConfiguration() {
    return Map.of();
  }

  @Override
  public Map<String, String> stackVersions() {
    return Map.of();
  }

  /** Nothing was started, so nothing to stop. */
  @Override
  public void close() {}
}
