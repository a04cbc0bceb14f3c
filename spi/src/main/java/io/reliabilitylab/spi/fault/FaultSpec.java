package io.reliabilitylab.spi.fault;

import static org.apiguardian.api.API.Status.STABLE;

import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import org.apiguardian.api.API;

/**
 * One planned injection, serialisable so that a schedule replays exactly.
 *
 * @param id unique within a run, e.g. {@code srl-fault-3-task-failure}; the fault carries it into
 *     the job's exception history as proof
 * @param fault the injector's name
 * @param position where it fires
 * @param parameters injector-specific settings, e.g. {@code variant -> snapshot-phase}
 */
@API(status = STABLE)
public record FaultSpec(
    String id, String fault, FaultPosition position, Map<String, String> parameters) {

  public FaultSpec {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(fault, "fault");
    Objects.requireNonNull(position, "position");
    parameters = Collections.unmodifiableMap(new TreeMap<>(parameters));
  }

  /** A parameter's value, or a default. */
  public String parameter(String key, String defaultValue) {
    return parameters.getOrDefault(key, defaultValue);
  }
}
