package io.reliabilitylab.faults;

import io.reliabilitylab.spi.fault.FaultInjector;
import io.reliabilitylab.spi.fault.FaultPosition;
import io.reliabilitylab.spi.fault.FaultSpec;
import io.reliabilitylab.spi.fault.FaultVariant;
import io.reliabilitylab.testkit.simulated.SimulatedPipeline;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The testkit's contract for one named variant of a fault, live against a {@link
 * SimulatedPipeline}: the spec carries the variant's parameters and its fixed position, or, like
 * the lab's runner, a position shortly ahead of the running job.
 */
abstract class VariantContract extends LiveContract {

  VariantContract() {}

  VariantContract(Supplier<SimulatedPipeline> pipelines) {
    super(pipelines);
  }

  /** The variant's name, as listed by the injector's {@code variants()}. */
  abstract String variant();

  @Override
  protected FaultSpec spec(FaultInjector injector) {
    FaultVariant chosen =
        injector.variants().stream()
            .filter(v -> v.name().equals(variant()))
            .findFirst()
            .orElseThrow(
                () ->
                    new AssertionError(injector.name() + " lists no variant '" + variant() + "'"));
    FaultPosition position = chosen.fixedPosition().orElseGet(() -> aheadOfTheJob(injector));
    return new FaultSpec(
        "srl-fault-1-" + injector.name(),
        injector.name(),
        position,
        Map.copyOf(chosen.parameters()));
  }

  /**
   * Where the lab's runner places a variant without a position: ahead of the running job (the
   * runner, with checkpoints a second apart, takes two; the simulation checkpoints every few
   * milliseconds, so this takes more).
   */
  private FaultPosition aheadOfTheJob(FaultInjector injector) {
    long next = pipeline().checkpoints().stream().mapToLong(c -> c.id()).max().orElse(0) + 25;
    if (injector.supportedPositions().contains(FaultPosition.Kind.AT_CHECKPOINT)) {
      return new FaultPosition.AtCheckpoint(next);
    }
    if (injector.supportedPositions().contains(FaultPosition.Kind.AROUND_COMMIT)) {
      return new FaultPosition.AroundCommit(next, false);
    }
    return new FaultPosition.Now();
  }
}
