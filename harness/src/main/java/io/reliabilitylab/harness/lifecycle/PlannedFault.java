package io.reliabilitylab.harness.lifecycle;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.reliabilitylab.spi.fault.FaultPosition;
import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * A fault a scenario injects after its baseline: the injector's name, where it fires (or null: the
 * runner picks the fault's first supported position relative to the running job) and its
 * parameters.
 */
@API(status = EXPERIMENTAL)
public record PlannedFault(
    String fault, @Nullable FaultPosition position, Map<String, String> parameters) {

  public PlannedFault {
    Objects.requireNonNull(fault, "fault");
    parameters = Collections.unmodifiableMap(new TreeMap<>(parameters));
  }

  /** A fault at the runner's default position, without parameters. */
  public static PlannedFault of(String fault) {
    return new PlannedFault(fault, null, Map.of());
  }
}
