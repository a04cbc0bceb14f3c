package io.reliabilitylab.pipeline.direct.ownjob;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.reliabilitylab.pipeline.direct.job.DirectJobConfig;
import io.reliabilitylab.spi.pipeline.SourceEndpoint;
import io.reliabilitylab.spi.secret.Credentials;
import java.util.Objects;
import org.apiguardian.api.API;

/**
 * Where the lab's {@code orders} table is and how a team's job reads its binlog; {@link
 * #toString()} shows the account's user, never its password.
 *
 * @param endpoint the source: host, port, database, the captured table and the CDC account
 *     (replication privileges, binlog in row format, full images)
 * @param serverIdRange replica server ids the job's binlog readers may use, e.g. {@code 5400-5409}
 * @param serverTimeZone the server's session time zone for snapshot reads
 */
@API(status = EXPERIMENTAL)
public record OrdersSource(SourceEndpoint endpoint, String serverIdRange, String serverTimeZone) {

  public OrdersSource {
    Objects.requireNonNull(endpoint, "endpoint");
    Objects.requireNonNull(serverIdRange, "serverIdRange");
    Objects.requireNonNull(serverTimeZone, "serverTimeZone");
  }

  /** The source the direct pipeline's job configuration reads. */
  static OrdersSource of(DirectJobConfig config) {
    return new OrdersSource(config.source(), config.serverIdRange(), config.serverTimeZone());
  }

  /** The MySQL/MariaDB host. */
  public String host() {
    return endpoint.host();
  }

  /** The server's port. */
  public int port() {
    return endpoint.port();
  }

  /** The database (schema) holding the table. */
  public String database() {
    return endpoint.database();
  }

  /** The captured table, {@code orders} unless the lab names another. */
  public String table() {
    return endpoint.table();
  }

  /** The CDC account; {@link Credentials#revealPassword()} gives its password to the job. */
  public Credentials credentials() {
    return endpoint.credentials();
  }

  /** {@code database.table}, as Flink CDC's {@code tableList} takes it. */
  public String qualifiedTable() {
    return database() + "." + table();
  }
}
