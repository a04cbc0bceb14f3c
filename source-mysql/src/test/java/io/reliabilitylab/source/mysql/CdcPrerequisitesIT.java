package io.reliabilitylab.source.mysql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class CdcPrerequisitesIT {

  private final EmbeddedMariaDb source = EmbeddedMariaDb.shared();

  @BeforeEach
  @AfterEach
  void restore() throws SQLException {
    source.resetDatabase();
    execute("DROP USER IF EXISTS 'lab_weak'@'%', 'lab_weak'@'localhost'");
  }

  @Test
  void theEmbeddedServerIsReady() {
    CdcReadiness readiness = CdcPrerequisites.verify(source);

    assertThat(readiness.ready()).isTrue();
    assertThat(readiness.serverVersion()).startsWith(source.binaries().version());
    assertThat(readiness.cdcAccount()).startsWith("lab_cdc@");
    assertThat(readiness.logBin()).isEqualTo("ON");
    assertThat(readiness.binlogFormat()).isEqualTo("ROW");
    assertThat(readiness.binlogRowImage()).isEqualTo("FULL");
    assertThat(readiness.serverId()).isEqualTo(1);
    assertThat(readiness.privileges())
        .contains("REPLICATION SLAVE", "BINLOG MONITOR", "RELOAD", "SELECT");
    assertThat(readiness.summary())
        .contains("ready")
        .doesNotContain(source.cdcCredentials().revealPassword());
  }

  @Test
  void aStatementBinlogIsNamedWithTheFix() throws SQLException {
    execute("SET GLOBAL binlog_format = 'STATEMENT'");

    assertThatThrownBy(() -> CdcPrerequisites.verify(source))
        .isInstanceOf(SourceNotReadyException.class)
        .hasMessageContaining("binlog_format is STATEMENT; the lab needs ROW")
        .hasMessageContaining("SET GLOBAL binlog_format=ROW")
        .hasMessageNotContaining("binlog_row_image")
        .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
  }

  @Test
  void aMinimalRowImageIsNamedWithTheFix() throws SQLException {
    execute("SET GLOBAL binlog_row_image = 'MINIMAL'");

    assertThatThrownBy(() -> CdcPrerequisites.verify(source))
        .isInstanceOf(SourceNotReadyException.class)
        .hasMessageContaining(
            "binlog_row_image is MINIMAL; the lab needs FULL: set binlog_row_image=FULL in the"
                + " server config (or SET GLOBAL binlog_row_image=FULL) and restart the capture");
  }

  @Test
  void everyProblemIsNamedInOneLine() throws SQLException {
    execute("SET GLOBAL binlog_format = 'MIXED'");
    execute("SET GLOBAL binlog_row_image = 'NOBLOB'");

    assertThatThrownBy(() -> CdcPrerequisites.verify(source))
        .isInstanceOfSatisfying(
            SourceNotReadyException.class,
            e -> {
              assertThat(e.problems()).hasSize(2);
              assertThat(e.getMessage())
                  .contains("binlog_format is MIXED")
                  .contains("binlog_row_image is NOBLOB")
                  .doesNotContain("\n");
            });
  }

  @Test
  void aCdcUserWithoutGrantsIsToldWhatToGrant() throws SQLException {
    String password = SourceJdbc.randomPassword(20);
    for (String host : new String[] {"%", "localhost"}) {
      execute("CREATE USER 'lab_weak'@'" + host + "' IDENTIFIED BY '" + password + "'");
    }
    SourceDatabase weak = external("lab_weak", password);

    assertThatThrownBy(() -> CdcPrerequisites.verify(weak))
        .isInstanceOf(SourceNotReadyException.class)
        .hasMessageContaining("the CDC user 'lab_weak' may not use database lab")
        .hasMessageContaining(
            "GRANT REPLICATION SLAVE, REPLICATION CLIENT, RELOAD, SELECT ON *.* TO 'lab_weak'@'%'")
        .hasMessageNotContaining(password);

    // USAGE on the database lets it connect; the missing global privileges are named.
    for (String host : new String[] {"%", "localhost"}) {
      execute("GRANT SHOW VIEW ON `lab`.* TO 'lab_weak'@'" + host + "'");
    }
    assertThatThrownBy(() -> CdcPrerequisites.verify(weak))
        .isInstanceOf(SourceNotReadyException.class)
        .hasMessageContaining("the CDC account lab_weak@")
        .hasMessageContaining("lacks REPLICATION SLAVE, BINLOG MONITOR, RELOAD, SELECT")
        .hasMessageContaining(
            "GRANT REPLICATION SLAVE, BINLOG MONITOR, RELOAD, SELECT ON *.* TO 'lab_weak'@'")
        .hasMessageNotContaining(password);

    for (String host : new String[] {"%", "localhost"}) {
      execute("GRANT SELECT ON `lab`.* TO 'lab_weak'@'" + host + "'");
      execute("GRANT REPLICATION SLAVE, REPLICATION CLIENT ON *.* TO 'lab_weak'@'" + host + "'");
    }
    assertThatThrownBy(() -> CdcPrerequisites.verify(weak)).hasMessageContaining("lacks RELOAD;");

    for (String host : new String[] {"%", "localhost"}) {
      execute("GRANT RELOAD ON *.* TO 'lab_weak'@'" + host + "'");
    }
    assertThat(CdcPrerequisites.verify(weak).ready()).isTrue();
  }

  @Test
  void aWrongPasswordIsReportedWithoutThePassword() {
    String wrong = "Wrong" + SourceJdbc.randomPassword(12);
    SourceDatabase wrongPassword = external(source.cdcCredentials().user(), wrong);

    assertThatThrownBy(() -> CdcPrerequisites.verify(wrongPassword))
        .isInstanceOf(SourceNotReadyException.class)
        .hasMessageContaining(
            "cannot connect to " + source.jdbcUrl() + " as the CDC user 'lab_cdc'")
        .hasMessageContaining("check host, port, database, user and password")
        .hasMessageNotContaining(wrong);
  }

  @Test
  void anExternalDatabaseReachesTheServerByUrl() throws SQLException {
    ExternalDatabase external =
        ExternalDatabase.of(
            source.jdbcUrl(),
            source.adminCredentials().user(),
            source.adminCredentials().revealPassword());

    assertThat(external.kind()).isEqualTo("external");
    assertThat(external.host()).isEqualTo("127.0.0.1");
    assertThat(external.port()).isEqualTo(source.port());
    assertThat(external.database()).isEqualTo("lab");
    assertThat(external.serverVersion()).startsWith(source.binaries().version());
    // The admin account serves the capture too when no CDC account is given.
    assertThat(CdcPrerequisites.verify(external).cdcAccount()).startsWith("lab_admin@");
    external.close();
    assertThat(source.isRunning()).isTrue();
  }

  private SourceDatabase external(String cdcUser, String cdcPassword) {
    return ExternalDatabase.builder()
        .jdbcUrl(source.jdbcUrl())
        .admin(source.adminCredentials().user(), source.adminCredentials().revealPassword())
        .cdc(cdcUser, cdcPassword)
        .build();
  }

  private void execute(String sql) throws SQLException {
    try (Connection connection = source.connect();
        Statement statement = connection.createStatement()) {
      statement.execute(sql);
    }
  }
}
