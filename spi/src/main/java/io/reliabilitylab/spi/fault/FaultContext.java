package io.reliabilitylab.spi.fault;

import static org.apiguardian.api.API.Status.STABLE;

import io.reliabilitylab.spi.pipeline.PipelineUnderTest;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;
import org.apiguardian.api.API;

/**
 * What a fault injector works with: the pipeline, the planned injection, a clock for evidence
 * times, a deadline for every wait, a directory for its own files, and whom to tell once it is
 * armed.
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
   * Says the fault is in place and waits for the changes it acts on: an injection that performs the
   * fault and returns only when done (a connector marked and rewound, a broker stopped and started)
   * calls this as soon as the changes written from now on are the ones it must see. An injection
   * that returns once armed need not call it.
   */
  public void signalArmed() {
    onArmed.run();
  }
}
