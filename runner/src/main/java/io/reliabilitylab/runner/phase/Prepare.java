package io.reliabilitylab.runner.phase;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.reliabilitylab.source.jdbc.CaptureNotReadyException;
import io.reliabilitylab.source.jdbc.CdcSource;
import io.reliabilitylab.source.jdbc.SourceTable;
import org.apiguardian.api.API;

/**
 * Prepares the environment: a fresh source table, a source that can be captured (binlog on, row
 * format, full row images, a CDC account with its grants), and the plan's pipeline provider. A
 * source that is not ready aborts the scenario with what to change.
 */
@API(status = INTERNAL)
public final class Prepare implements Phase {

  @Override
  public String name() {
    return "prepare";
  }

  @Override
  public Outcome run(Scenario scenario) throws Exception {
    SourceTable table;
    try {
      table = freshTable(scenario.source());
    } catch (CaptureNotReadyException e) {
      return Outcome.aborted(e.getMessage());
    }
    scenario.prepared(table, scenario.lab().provider(scenario.plan().pipeline()));
    return Outcome.proceed();
  }

  /**
   * Resets the source's orders table and verifies the source's CDC prerequisites; returns the
   * table.
   *
   * @throws CaptureNotReadyException naming each prerequisite the source lacks
   */
  public static SourceTable freshTable(CdcSource source) throws Exception {
    SourceTable table = source.orders();
    table.reset();
    table.verifyCapture();
    return table;
  }
}
