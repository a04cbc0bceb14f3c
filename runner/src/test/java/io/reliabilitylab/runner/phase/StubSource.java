package io.reliabilitylab.runner.phase;

import io.reliabilitylab.source.mysql.SourceDatabase;
import io.reliabilitylab.spi.secret.Credentials;
import java.sql.Connection;
import java.sql.SQLException;

/** A source database that is not there: every connection fails, so no phase may need one. */
final class StubSource implements SourceDatabase {

  @Override
  public String kind() {
    return "stub";
  }

  @Override
  public String serverVersion() {
    return "stub 1.0";
  }

  @Override
  public String host() {
    return "127.0.0.1";
  }

  @Override
  public int port() {
    return 3306;
  }

  @Override
  public String database() {
    return "lab";
  }

  @Override
  public String jdbcUrl() {
    return "jdbc:mariadb://127.0.0.1:3306/lab";
  }

  @Override
  public Credentials cdcCredentials() {
    return Credentials.of("cdc", "not-a-secret");
  }

  @Override
  public Connection connect() throws SQLException {
    throw new SQLException("the stub source has no database");
  }

  @Override
  public void close() {}
}
