package io.reliabilitylab.kit;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.reliabilitylab.spi.fault.FaultContext;
import io.reliabilitylab.spi.fault.FaultHandle;
import io.reliabilitylab.spi.fault.FaultInjector;
import io.reliabilitylab.spi.pipeline.PipelineCapability;
import io.reliabilitylab.spi.pipeline.PipelineUnderTest;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.apiguardian.api.API;

/**
 * Which capabilities a fault requires that a pipeline lacks, and the skipped outcome that follows:
 * a fault that cannot be hosted is reported as skipped with the missing capabilities named, never
 * as fired or passed. Call it first thing in {@link FaultInjector#inject}:
 *
 * <pre>{@code
 * public FaultHandle inject(FaultContext context) {
 *   Optional<FaultHandle> skipped = CapabilityCheck.skipIfMissing(this, context);
 *   if (skipped.isPresent()) {
 *     return skipped.get();
 *   }
 *   ...
 * }
 * }</pre>
 */
@API(status = EXPERIMENTAL)
public final class CapabilityCheck {

  private CapabilityCheck() {}

  /**
   * The capabilities in {@code required} that {@code pipeline} offers neither as such nor as a
   * subtype, ordered by simple name.
   */
  public static List<Class<? extends PipelineCapability>> missing(
      Set<Class<? extends PipelineCapability>> required, PipelineUnderTest pipeline) {
    Objects.requireNonNull(required, "required");
    Objects.requireNonNull(pipeline, "pipeline");
    Set<Class<? extends PipelineCapability>> offered = pipeline.capabilities();
    List<Class<? extends PipelineCapability>> missing = new ArrayList<>();
    for (Class<? extends PipelineCapability> type : required) {
      if (offered.stream().noneMatch(type::isAssignableFrom)) {
        missing.add(type);
      }
    }
    missing.sort(Comparator.comparing(Class::getSimpleName));
    return missing;
  }

  /** The capabilities {@code injector} requires that {@code pipeline} lacks. */
  public static List<Class<? extends PipelineCapability>> missing(
      FaultInjector injector, PipelineUnderTest pipeline) {
    Objects.requireNonNull(injector, "injector");
    return missing(injector.requiredCapabilities(), pipeline);
  }

  /**
   * Why {@code injector} cannot run on {@code pipeline}, naming each missing capability, or empty
   * when nothing is missing: {@code pipeline 'bare' lacks JobControl, TaskManagerControl, which
   * fault 'task-failure' requires}.
   */
  public static Optional<String> skipReason(FaultInjector injector, PipelineUnderTest pipeline) {
    List<Class<? extends PipelineCapability>> missing = missing(injector, pipeline);
    if (missing.isEmpty()) {
      return Optional.empty();
    }
    List<String> names = missing.stream().map(Class::getSimpleName).toList();
    return Optional.of(
        "pipeline '"
            + pipeline.name()
            + "' lacks "
            + String.join(", ", names)
            + ", which fault '"
            + injector.name()
            + "' requires");
  }

  /**
   * A {@link SkippedFault} whose evidence is {@link
   * io.reliabilitylab.spi.fault.FaultStatus#SKIPPED} with the {@link #skipReason reason}, when the
   * context's pipeline lacks a capability {@code injector} requires; empty when the fault can be
   * injected.
   */
  public static Optional<FaultHandle> skipIfMissing(FaultInjector injector, FaultContext context) {
    Objects.requireNonNull(context, "context");
    return skipReason(injector, context.pipeline())
        .<FaultHandle>map(reason -> SkippedFault.because(context, reason));
  }
}
