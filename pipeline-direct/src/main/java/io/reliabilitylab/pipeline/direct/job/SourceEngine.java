package io.reliabilitylab.pipeline.direct.job;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.reliabilitylab.spi.pipeline.SourceEndpoint;
import org.apiguardian.api.API;

/** Which database the direct job captures, and so which of Flink CDC's sources reads it. */
@API(status = EXPERIMENTAL)
public enum SourceEngine {
  /** MySQL or MariaDB, by the binlog ({@code MySqlSource}). */
  MYSQL,
  /** PostgreSQL, by logical decoding with {@code pgoutput} ({@code PostgresIncrementalSource}). */
  POSTGRES;

  /** The engine an endpoint's JDBC URL names: {@code jdbc:postgresql:} or a MySQL protocol one. */
  public static SourceEngine of(SourceEndpoint source) {
    return source.jdbcUrl().startsWith("jdbc:postgresql:") ? POSTGRES : MYSQL;
  }
}
