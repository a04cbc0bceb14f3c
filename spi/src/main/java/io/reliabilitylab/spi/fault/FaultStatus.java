package io.reliabilitylab.spi.fault;

import static org.apiguardian.api.API.Status.STABLE;

import org.apiguardian.api.API;

/** Whether a fault is proven to have fired. Only {@code FIRED} lets a scenario pass. */
@API(status = STABLE)
public enum FaultStatus {
  /** Armed, not yet fired. */
  ARMED,
  /** Fired, with proof in the evidence. */
  FIRED,
  /** Injection was attempted but could not be proven: the scenario fails. */
  NOT_PROVEN,
  /** Not injected because the pipeline lacks a capability; the reason says which. */
  SKIPPED
}
