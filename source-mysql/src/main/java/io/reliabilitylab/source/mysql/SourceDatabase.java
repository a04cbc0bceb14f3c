package io.reliabilitylab.source.mysql;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.reliabilitylab.source.jdbc.CdcSource;
import io.reliabilitylab.source.jdbc.WriterSettings;
import io.reliabilitylab.spi.data.SourcePosition;
import io.reliabilitylab.spi.data.TableSchema;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * A MySQL-protocol database the lab captures changes from. Closing it stops what the lab started
 * (an embedded server and its data directory); an external database is left as it was.
 *
 * <p>Every connection the lab opens has the session time zone {@code +00:00}, so {@code TIMESTAMP}
 * values are UTC whatever the JVM's or the server's default zone.
 *
 * <pre>{@code
 * try (SourceDatabase source = EmbeddedMariaDb.start()) {
 *   CdcPrerequisites.verify(source);
 *   OrdersTable.in(source).reset();
 *   WorkloadWriter.to(source).write(workload);
 * }
 * }</pre>
 */
@API(status = EXPERIMENTAL)
public interface SourceDatabase extends CdcSource {

  /** {@code embedded-mariadb}, {@code external} or {@code mysql-container}. */
  @Override
  String kind();

  /** Server product and version as the server reports it, e.g. {@code 10.11.5-MariaDB-log}. */
  @Override
  String serverVersion() throws SQLException;

  /** The database (schema) that holds the captured tables. */
  @Override
  String database();

  /**
   * A new connection with the rights to create tables and write the workload, to {@link
   * #database()}, session time zone {@code +00:00}, auto-commit on. The caller closes it.
   */
  @Override
  Connection connect() throws SQLException;

  /**
   * A new connection as the CDC user ({@link #cdcCredentials()}), with the same settings as {@link
   * #connect()}: what the capture sees, for prerequisite checks.
   */
  default Connection connectAsCdcUser() throws SQLException {
    return SourceJdbc.open(jdbcUrl(), cdcCredentials());
  }

  @Override
  default OrdersTable orders(String name) {
    return OrdersTable.in(this, name);
  }

  @Override
  default OrdersTable orders() {
    return OrdersTable.in(this);
  }

  @Override
  default WorkloadWriter writer(WriterSettings settings) {
    WorkloadWriter.Builder builder =
        WorkloadWriter.builder(this)
            .table(settings.table())
            .eventsPerSecond(settings.eventsPerSecond())
            .transactionsPerCommit(settings.transactionsPerCommit());
    if (settings.listener() != null) {
      builder.listener(settings.listener());
    }
    return builder.build();
  }

  @Override
  default SourceRowReader rows(TableSchema schema, String table) {
    return SourceRowReader.table(this, schema, table);
  }

  /** The binlog file and offset now; empty when the binlog is off. */
  @Override
  default Optional<SourcePosition> position() throws SQLException {
    return BinlogClients.currentPosition(this);
  }
}
