package io.reliabilitylab.pipeline.flink.archfixture;

import io.reliabilitylab.record.RunRecord;
import io.reliabilitylab.runner.ScenarioRunner;

/** A pipeline class that reaches into the runner and the run record: the rule must reject it. */
public final class PipelineUsingTheRunner {

  private PipelineUsingTheRunner() {}

  /** Depends on the runner and the record. */
  public static String use(ScenarioRunner runner, RunRecord record) {
    return runner + " " + record;
  }
}
