package io.reliabilitylab.runner.phase;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.reliabilitylab.record.RunRecord;
import io.reliabilitylab.record.RunRecordWriter;
import java.io.IOException;
import org.apiguardian.api.API;

/**
 * The last step, whatever came before: finishes the scenario's record — its summary computed from
 * the checks and faults it holds — and writes it as {@code <run id>.json} into the out directory.
 */
@API(status = INTERNAL)
public final class RecordRun {

  private RecordRun() {}

  static RunRecord write(Scenario scenario) throws IOException {
    RunRecord done = scenario.record().finishedAt(scenario.clock().instant()).build();
    new RunRecordWriter(scenario.lab().outDirectory()).write(done);
    return done;
  }
}
