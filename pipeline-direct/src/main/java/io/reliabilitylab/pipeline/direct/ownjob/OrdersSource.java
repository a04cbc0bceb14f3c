package io.reliabilitylab.pipeline.direct.ownjob;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.reliabilitylab.pipeline.direct.job.DirectJobConfig;
import io.reliabilitylab.source.mysql.SourceDatabase;
import java.util.Objects;
import org.apiguardian.api.API;

/**
 * Where the lab's {@code orders} table is and how a team's job reads its binlog; {@link
 * #toString()} shows the account's user, never its password.
 *
 * @param host the MySQL/MariaDB host
 * @param port its port
 * @param database the database (schema) holding the table
 * @param table the captured table, {@code orders} unless the lab names another
 * @param credentials the CDC account (replication privileges, binlog in row format, full images)
 * @param serverIdRange replica server ids the job's binlog readers may use, e.g. {@code 5400-5409}
 * @param serverTimeZone the server's session time zone for snapshot reads
 */
@API(status = EXPERIMENTAL)
public record OrdersSource(
    String host,
    int port,
    String database,
    String table,
    SourceDatabase.Credentials credentials,
    String serverIdRange,
    String serverTimeZone) {

  public OrdersSource {
    Objects.requireNonNull(host, "host");
    Objects.requireNonNull(database, "database");
    Objects.requireNonNull(table, "table");
    Objects.requireNonNull(credentials, "credentials");
    Objects.requireNonNull(serverIdRange, "serverIdRange");
    Objects.requireNonNull(serverTimeZone, "serverTimeZone");
  }

  /** The source the direct pipeline's job configuration reads. */
  static OrdersSource of(DirectJobConfig config) {
    return new OrdersSource(
        config.sourceHost(),
        config.sourcePort(),
        config.database(),
        config.table(),
        config.credentials(),
        config.serverIdRange(),
        config.serverTimeZone());
  }

  /** {@code database.table}, as Flink CDC's {@code tableList} takes it. */
  public String qualifiedTable() {
    return database + "." + table;
  }
}
