package io.reliabilitylab.runner.phase;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.reliabilitylab.runner.ScenarioPlan;
import org.apiguardian.api.API;

/**
 * Hears each phase of a scenario start, to show what a long wait is waiting for. It is told, never
 * asked: a listener that throws is logged and the scenario goes on.
 */
@API(status = EXPERIMENTAL)
@FunctionalInterface
public interface PhaseListener {

  /** Hears nothing. */
  PhaseListener NONE = (plan, phase) -> {};

  /**
   * The phase named {@code phase} ({@code start}, {@code catch-up}, ...) of {@code plan} starts.
   */
  void phaseStarting(ScenarioPlan plan, String phase);
}
