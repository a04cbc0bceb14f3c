package io.reliabilitylab.spi.fault;

import static org.apiguardian.api.API.Status.STABLE;

import io.reliabilitylab.spi.pipeline.PipelineUnderTest;
import io.reliabilitylab.spi.pipeline.SourceEndpoint;
import io.reliabilitylab.spi.pipeline.SourceEndpointAccess;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * What a fault injector works with: the pipeline, the planned injection, a clock for evidence
 * times, a deadline for every wait, a directory for its own files, and whom to tell once it is
 * armed; and, through {@link #source()}, where the pipeline's source database is.
 *
 * @param onArmed run by {@link #signalArmed()}: the lab starts the writes a fault acts on then
 */
@API(status = STABLE)
public record FaultContext(
    PipelineUnderTest pipeline,
    FaultSpec spec,
    Clock clock,
    Duration timeout,
    Path workDirectory,
    Runnable onArmed) {

  public FaultContext {
    Objects.requireNonNull(pipeline, "pipeline");
    Objects.requireNonNull(spec, "spec");
    Objects.requireNonNull(clock, "clock");
    Objects.requireNonNull(timeout, "timeout");
    Objects.requireNonNull(workDirectory, "workDirectory");
    Objects.requireNonNull(onArmed, "onArmed");
  }

  /** A context whose {@link #signalArmed()} tells no one. */
  public FaultContext(
      PipelineUnderTest pipeline,
      FaultSpec spec,
      Clock clock,
      Duration timeout,
      Path workDirectory) {
    this(pipeline, spec, clock, timeout, workDirectory, () -> {});
  }

  /**
   * Where the pipeline's source database is and the account its connector reads it with, so that
   * the fault can open its own connection; empty when the pipeline does not offer {@link
   * SourceEndpointAccess} (list it in {@link FaultInjector#requiredCapabilities()} to need it).
   */
  public Optional<SourceEndpoint> source() {
    return pipeline
        .capability(SourceEndpointAccess.class)
        .map(SourceEndpointAccess::sourceEndpoint);
  }

  /**
   * Says the fault is in place and waits for the changes it acts on: an injection that performs the
   * fault and returns only when done (a connector marked and rewound, a broker stopped and started)
   * calls this as soon as the changes written from now on are the ones it must see. An injection
   * that returns once armed need not call it.
   */
  public void signalArmed() {
    onArmed.run();
  }
}
