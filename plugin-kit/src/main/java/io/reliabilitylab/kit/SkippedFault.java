package io.reliabilitylab.kit;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.reliabilitylab.spi.fault.FaultContext;
import io.reliabilitylab.spi.fault.FaultEvidence;
import io.reliabilitylab.spi.fault.FaultHandle;
import io.reliabilitylab.spi.fault.FaultStatus;
import io.reliabilitylab.spi.fault.RecoveryEvidence;
import java.time.Duration;
import java.util.Objects;
import org.apiguardian.api.API;

/**
 * The handle of a fault that was not injected (the pipeline lacks a capability or a fault point it
 * needs): its evidence stays {@link FaultStatus#SKIPPED} with the reason, its recovery is not
 * recovered and names that reason, and there is nothing to heal. A fault the pipeline cannot host
 * is reported this way, never as fired or passed.
 *
 * <pre>{@code
 * if (!points.available().contains("operator")) {
 *   return SkippedFault.because(context, "the job has no fault point 'operator'");
 * }
 * }</pre>
 *
 * @param evidence the skipped evidence, with its reason
 */
@API(status = EXPERIMENTAL)
public record SkippedFault(FaultEvidence evidence) implements FaultHandle {

  public SkippedFault {
    Objects.requireNonNull(evidence, "evidence");
    if (evidence.status() != FaultStatus.SKIPPED) {
      throw new IllegalArgumentException(
          "A skipped fault's evidence is SKIPPED, not " + evidence.status());
    }
  }

  /** The injection of {@code context} skipped for {@code reason}, now by the context's clock. */
  public static SkippedFault because(FaultContext context, String reason) {
    Objects.requireNonNull(context, "context");
    return new SkippedFault(
        FaultEvidence.skipped(context.spec(), context.clock().instant(), reason));
  }

  @Override
  public FaultEvidence awaitFired(Duration timeout) {
    return evidence;
  }

  @Override
  public RecoveryEvidence awaitRecovery(Duration timeout) {
    return RecoveryEvidence.skipped(evidence.injectedAt(), evidence.reason());
  }

  /** Nothing was changed, so nothing to heal. */
  @Override
  public void close() {}
}
