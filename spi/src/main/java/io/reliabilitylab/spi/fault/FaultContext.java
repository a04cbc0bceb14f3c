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
 * times, a deadline for every wait, and a directory for its own files.
 */
@API(status = STABLE)
public record FaultContext(
    PipelineUnderTest pipeline, FaultSpec spec, Clock clock, Duration timeout, Path workDirectory) {

  public FaultContext {
    Objects.requireNonNull(pipeline, "pipeline");
    Objects.requireNonNull(spec, "spec");
    Objects.requireNonNull(clock, "clock");
    Objects.requireNonNull(timeout, "timeout");
    Objects.requireNonNull(workDirectory, "workDirectory");
  }
}
