package io.reliabilitylab.spi.pipeline;

import static org.apiguardian.api.API.Status.STABLE;

import io.reliabilitylab.spi.fault.FaultPosition;
import java.time.Instant;
import java.util.Optional;
import java.util.Set;
import org.apiguardian.api.API;

/**
 * Named fault points compiled into the job (no-ops until armed): a split enumerator wrapper, an
 * operator that throws or stalls, a checkpoint storage that fails, a catalog that fails commits.
 */
@API(status = STABLE)
public interface FaultPoints extends PipelineCapability {

  /** The names of the fault points this job has, e.g. {@code source-enumerator}. */
  Set<String> available();

  /**
   * Arms a fault point: when the job reaches {@code position} the point performs {@code action}
   * once, carrying {@code faultId} in its exception message so the lab can find it in the job's
   * exception history.
   */
  void arm(String point, FaultPosition position, String action, String faultId);

  /** Disarms every point armed with this fault id. */
  void disarm(String faultId);

  /** When the point armed with this fault id fired, if it did. */
  Optional<Instant> firedAt(String faultId);
}
