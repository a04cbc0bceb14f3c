package io.reliabilitylab.junit;

import io.reliabilitylab.source.mysql.SourceDatabase;
import io.reliabilitylab.spi.secret.Credentials;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A source database nothing can connect to, which counts how often it was closed: a scenario on it
 * stops at its first connection with an environment error, without any server.
 */
final class UnreachableSource implements SourceDatabase {

  static final String REFUSAL = "connection refused: the test's source has no server";

  final AtomicInteger closes = new AtomicInteger();

  @Override
  public String kind() {
    return "unreachable";
  }

  @Override
  public String serverVersion() throws SQLException {
    throw new SQLException(REFUSAL);
  }

  @Override
  public String host() {
    return "127.0.0.1";
  }

  @Override
  public int port() {
    return 9;
  }

  @Override
  public String database() {
    return "lab";
  }

  @Override
  public String jdbcUrl() {
    return "jdbc:mysql://127.0.0.1:9/lab";
  }

  @Override
  public Credentials cdcCredentials() {
    return Credentials.of("lab_cdc", "not-a-secret");
  }

  @Override
  public Connection connect() throws SQLException {
    throw new SQLException(REFUSAL);
  }

  @Override
  public Connection connectAsCdcUser() throws SQLException {
    throw new SQLException(REFUSAL);
  }

  @Override
  public void close() {
    closes.incrementAndGet();
  }
}
