package io.reliabilitylab.spi.fault;

import static org.apiguardian.api.API.Status.STABLE;

import io.reliabilitylab.spi.Named;
import io.reliabilitylab.spi.pipeline.PipelineCapability;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.apiguardian.api.API;

/**
 * Injects one kind of failure into a pipeline and proves it fired.
 *
 * <p>Contract (proven for an implementation by the testkit's {@code FaultInjectorContract}):
 *
 * <ul>
 *   <li>{@link #inject} arms or performs the fault and returns without waiting for recovery;
 *   <li>if {@code inject} throws, nothing was changed and {@link FaultHandle#close()} is not
 *       needed;
 *   <li>the handle's evidence says {@link FaultStatus#FIRED} only with proof (the fault's id in the
 *       job's exception history, a restart count, a checkpoint id, a snapshot id, an offset);
 *   <li>a pipeline lacking a {@link #requiredCapabilities() required capability} gets a handle
 *       whose status is {@link FaultStatus#SKIPPED} with the missing capability named, never
 *       "fired";
 *   <li>{@link FaultHandle#close()} heals what the fault broke, is idempotent and never throws for
 *       a fault that did not fire.
 * </ul>
 *
 * Implementations are stateless and registered with {@code @AutoService(FaultInjector.class)}.
 */
@API(status = STABLE)
public interface FaultInjector extends Named {

  /** The capabilities a pipeline must offer for this fault. */
  Set<Class<? extends PipelineCapability>> requiredCapabilities();

  /** The logical positions this fault can be placed at. */
  default Set<FaultPosition.Kind> supportedPositions() {
    return EnumSet.of(FaultPosition.Kind.NOW);
  }

  /**
   * The named ways this fault runs as a scenario of its own, the plain one first and named {@link
   * FaultVariant#DEFAULT}; each variant's parameters and position must be accepted by {@link
   * #inject}.
   */
  default List<FaultVariant> variants() {
    return List.of(FaultVariant.standard(description()));
  }

  /**
   * The parameters that count changes the fault needs written after its injection (the k-th change
   * to corrupt, the changes to replay), so that a planner writing only a few changes while the
   * fault is armed, such as an explorer's random schedule, can fit them in; none by default.
   */
  default Set<String> changeCountParameters() {
    return Set.of();
  }

  /** Arms or performs the fault; see the contract above. */
  FaultHandle inject(FaultContext context) throws Exception;
}
