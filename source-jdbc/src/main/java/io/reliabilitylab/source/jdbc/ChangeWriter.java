package io.reliabilitylab.source.jdbc;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.reliabilitylab.workload.SourceTransaction;
import io.reliabilitylab.workload.Workload;
import io.reliabilitylab.workload.WriteReport;
import java.sql.SQLException;
import java.util.List;
import org.apiguardian.api.API;

/**
 * Writes a workload's changes into a source table, whatever the engine: the same changes, event
 * ids, per-key order and transaction boundaries, so that one oracle judges every source.
 */
@API(status = EXPERIMENTAL)
public interface ChangeWriter {

  /** Inserts the workload's initial rows before the capture starts; returns how many. */
  int insertInitialRows(Workload workload) throws SQLException;

  /** Writes all the workload's transactions (not its initial rows). */
  default WriteReport write(Workload workload) throws SQLException, InterruptedException {
    return write(workload.transactions());
  }

  /**
   * Writes transactions in order; stops between two when the thread is interrupted. A failing
   * transaction is rolled back and fails the write with an {@link SQLException} naming it.
   */
  WriteReport write(List<SourceTransaction> transactions) throws SQLException, InterruptedException;
}
