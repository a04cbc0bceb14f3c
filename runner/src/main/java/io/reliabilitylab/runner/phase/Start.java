package io.reliabilitylab.runner.phase;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.reliabilitylab.record.RunRecord;
import io.reliabilitylab.runner.ScenarioPlan;
import io.reliabilitylab.spi.pipeline.JobControl;
import io.reliabilitylab.spi.pipeline.PipelineUnderTest;
import java.time.Duration;
import java.time.Instant;
import org.apiguardian.api.API;

/**
 * Starts the pipeline and awaits its job running with a completed checkpoint; records the
 * configuration, stack versions and delivery semantics it runs with. Its waits' timeouts fail the
 * run as a failed {@code start} check.
 */
@API(status = INTERNAL)
public final class Start implements Phase {

  /** What the lab needs the pipeline's job and tables for, in a refusal's sentence. */
  static final String PURPOSE = "to run a scenario";

  @Override
  public String name() {
    return "start";
  }

  @Override
  public Duration deadline(ScenarioPlan plan) {
    return plan.startTimeout();
  }

  @Override
  public Outcome run(Scenario scenario) throws Exception {
    Instant startAt = scenario.clock().instant();
    RunningPipeline running =
        RunningPipeline.start(
            scenario.provider(),
            RunningPipeline.configuration(
                scenario.source(),
                scenario.table().name(),
                scenario.directory(),
                scenario.plan().options(),
                scenario.onJobSubmitted()),
            PURPOSE);
    scenario.started(running);
    PipelineUnderTest pipeline = running.pipeline();
    RunRecord.Builder record = scenario.record();
    record.configuration(pipeline.effectiveConfiguration()).stackVersions(pipeline.stackVersions());
    record.configuration("delivery.semantics", pipeline.semantics().name());
    record.configuration("commit.consistency", pipeline.commitConsistency().name());
    JobControl job = running.job();
    Duration timeout = scenario.plan().startTimeout();
    job.awaitRunning(timeout);
    job.awaitCompletedCheckpointAfter(scenario.clock().instant(), timeout);
    scenario.timing("start", startAt);
    return Outcome.proceed();
  }
}
