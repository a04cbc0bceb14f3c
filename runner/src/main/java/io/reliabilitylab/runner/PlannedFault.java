package io.reliabilitylab.runner;

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
 *
 * @param countedFromInjection whether the position's checkpoint number counts from the fault's
 *     injection ({@code at-checkpoint:2} = the second checkpoint after it) rather than from the
 *     job's first checkpoint; a random schedule needs this, as it cannot know the ids ahead. Event
 *     and snapshot-row counts always start at the injection.
 */
@API(status = EXPERIMENTAL)
public record PlannedFault(
    String fault,
    @Nullable FaultPosition position,
    Map<String, String> parameters,
    boolean countedFromInjection) {

  public PlannedFault {
    Objects.requireNonNull(fault, "fault");
    parameters = Collections.unmodifiableMap(new TreeMap<>(parameters));
  }

  /** A fault whose checkpoint numbers count from the job's first checkpoint. */
  public PlannedFault(
      String fault, @Nullable FaultPosition position, Map<String, String> parameters) {
    this(fault, position, parameters, false);
  }

  /** The position this fault fires at, given the latest checkpoint id when it is injected. */
  public @Nullable FaultPosition resolvedPosition(long latestCheckpoint) {
    if (!countedFromInjection || position == null) {
      return position;
    }
    if (position instanceof FaultPosition.AtCheckpoint at) {
      return new FaultPosition.AtCheckpoint(latestCheckpoint + at.checkpoint());
    }
    if (position instanceof FaultPosition.AroundCommit around) {
      return new FaultPosition.AroundCommit(
          latestCheckpoint + around.checkpoint(), around.afterSwap());
    }
    return position;
  }

  /** A fault at the runner's default position, without parameters. */
  public static PlannedFault of(String fault) {
    return new PlannedFault(fault, null, Map.of());
  }
}
