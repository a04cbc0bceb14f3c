package io.reliabilitylab.harness.bench;

import io.reliabilitylab.source.jdbc.CdcSource;
import io.reliabilitylab.source.jdbc.SourceTable;
import io.reliabilitylab.source.jdbc.WriterSettings;
import io.reliabilitylab.spi.data.Row;
import io.reliabilitylab.workload.SourceChange;
import io.reliabilitylab.workload.SourceTransaction;
import io.reliabilitylab.workload.WriteReport;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * The source's raw write limit in the same run, for the writer's figure to be read against: as many
 * rows as the workload changes, of the same shape, written as plain multi-row {@code INSERT}s with
 * the same commits, into a scratch table next to the bench's (dropped afterwards; written before
 * any capture starts, and no pipeline reads it).
 */
final class SourceLimit {

  private SourceLimit() {}

  /**
   * InnoDB's history list length (committed transactions not purged yet), from the metric MySQL and
   * MariaDB both keep; -1 where the server does not tell (PostgreSQL keeps no such metric).
   */
  static long purgeLag(CdcSource source) {
    try (Connection connection = source.connect();
        Statement statement = connection.createStatement();
        ResultSet result =
            statement.executeQuery(
                "SELECT count FROM information_schema.INNODB_METRICS"
                    + " WHERE name = 'trx_rseg_history_len'")) {
      return result.next() ? result.getLong(1) : -1;
    } catch (SQLException e) {
      return -1;
    }
  }

  /** Rows per second for {@code transactions}' changes as inserts of fresh keys. */
  static double insertRate(
      CdcSource source, String table, List<SourceTransaction> transactions, int perCommit)
      throws Exception {
    SourceTable scratch = source.orders(table + "_raw");
    scratch.reset();
    try {
      List<SourceTransaction> inserts = new ArrayList<>(transactions.size());
      long id = 0;
      for (SourceTransaction transaction : transactions) {
        List<SourceChange> rows = new ArrayList<>(transaction.changes().size());
        for (SourceChange change : transaction.changes()) {
          id++;
          rows.add(SourceChange.insert(image(change).with("order_id", id).with("event_id", id)));
        }
        inserts.add(new SourceTransaction(transaction.ordinal(), transaction.commitTime(), rows));
      }
      WriteReport report =
          source
              .writer(WriterSettings.of(scratch.name()).transactionsPerCommit(perCommit))
              .write(inserts);
      return Stats.perSecond(report.changes(), report.elapsed());
    } finally {
      scratch.drop();
    }
  }

  private static Row image(SourceChange change) {
    if (change instanceof SourceChange.Insert insert) {
      return insert.after();
    }
    if (change instanceof SourceChange.Update update) {
      return update.after();
    }
    return ((SourceChange.Delete) change).before();
  }
}
