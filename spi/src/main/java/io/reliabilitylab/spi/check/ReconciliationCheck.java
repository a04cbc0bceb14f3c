package io.reliabilitylab.spi.check;

import static org.apiguardian.api.API.Status.STABLE;

import io.reliabilitylab.spi.Named;
import io.reliabilitylab.spi.pipeline.PipelineCapability;
import java.util.Set;
import org.apiguardian.api.API;

/**
 * Compares what a pipeline produced with what it should have produced and says passed, failed or
 * inconclusive, with the evidence behind the verdict.
 *
 * <p>Contract (proven for an implementation by the testkit's {@code ReconciliationCheckContract}):
 *
 * <ul>
 *   <li>a check that lacks an input it needs answers {@link Verdict#INCONCLUSIVE}, never {@link
 *       Verdict#PASSED};
 *   <li>a check fails on at least one deliberately broken input: a check that cannot fail is a
 *       defect;
 *   <li>the same context gives the same verdict and the same evidence;
 *   <li>a check does not throw for bad data: it reports it. An input that cannot be read is
 *       inconclusive, with the reason.
 * </ul>
 *
 * Implementations are stateless and registered with
 * {@code @AutoService(ReconciliationCheck.class)}.
 */
@API(status = STABLE)
public interface ReconciliationCheck extends Named {

  /** Runs the check. */
  CheckResult check(CheckContext context);

  /**
   * The pipeline capabilities this check's inputs come from (a broker's offsets, a dead-letter
   * topic). The lab runs it only on a pipeline that offers all of them and reports it as not
   * applicable elsewhere, never as passed. Default: none, the check applies to every pipeline.
   */
  default Set<Class<? extends PipelineCapability>> requiredCapabilities() {
    return Set.of();
  }
}
