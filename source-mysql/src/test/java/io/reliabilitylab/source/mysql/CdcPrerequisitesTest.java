package io.reliabilitylab.source.mysql;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CdcPrerequisitesTest {

  private static final Map<String, String> GOOD =
      Map.of("log_bin", "ON", "binlog_format", "ROW", "binlog_row_image", "FULL", "server_id", "1");

  @Test
  void mySqlGrantsWithDynamicPrivilegesAreRead() {
    List<String> grants =
        List.of(
            "GRANT SELECT, RELOAD, SHOW DATABASES, REPLICATION SLAVE, REPLICATION CLIENT ON *.* TO"
                + " `cdc`@`%`",
            "GRANT BACKUP_ADMIN,BINLOG_ADMIN ON *.* TO `cdc`@`%`");

    CdcReadiness readiness = CdcPrerequisites.evaluate("8.0.36", "cdc@%", GOOD, grants, "lab");

    assertThat(readiness.ready()).isTrue();
    assertThat(readiness.privileges())
        .contains("SELECT", "RELOAD", "REPLICATION SLAVE", "REPLICATION CLIENT");
  }

  @Test
  void allPrivilegesOnEverythingHoldEveryOne() {
    CdcReadiness readiness =
        CdcPrerequisites.evaluate(
            "10.11.5-MariaDB",
            "root@localhost",
            GOOD,
            List.of(
                "GRANT ALL PRIVILEGES ON *.* TO `root`@`localhost` IDENTIFIED BY PASSWORD"
                    + " '*ABC' WITH GRANT OPTION"),
            "lab");

    assertThat(readiness.ready()).isTrue();
  }

  @Test
  void selectMayComeFromTheDatabaseButReplicationOnlyFromEverything() {
    List<String> grants =
        List.of(
            "GRANT USAGE ON *.* TO `cdc`@`%`",
            "GRANT SELECT, REPLICATION SLAVE, RELOAD ON `lab`.* TO `cdc`@`%`",
            "GRANT BINLOG MONITOR ON *.* TO `cdc`@`%`");

    CdcReadiness readiness =
        CdcPrerequisites.evaluate("10.11.5-MariaDB", "cdc@%", GOOD, grants, "lab");

    assertThat(readiness.privileges()).containsExactlyInAnyOrder("SELECT", "BINLOG MONITOR");
    assertThat(readiness.problems())
        .singleElement()
        .asString()
        .contains("lacks REPLICATION SLAVE, RELOAD;")
        .contains("GRANT REPLICATION SLAVE, RELOAD ON *.* TO 'cdc'@'%'");
  }

  @Test
  void databasePatternsAndTableGrantsCountForSelect() {
    assertThat(
            CdcPrerequisites.privileges(List.of("GRANT SELECT ON `la\\_%`.* TO `c`@`%`"), "la_b"))
        .containsExactly("SELECT");
    assertThat(
            CdcPrerequisites.privileges(
                List.of("GRANT SELECT (order_id) ON `lab`.`orders` TO `c`@`%`"), "lab"))
        .containsExactly("SELECT");
    assertThat(CdcPrerequisites.privileges(List.of("GRANT SELECT ON `other`.* TO `c`@`%`"), "lab"))
        .isEmpty();
    assertThat(CdcPrerequisites.privileges(List.of("GRANT SELECT ON `labx`.* TO `c`@`%`"), "lab"))
        .isEmpty();
  }

  @Test
  void privilegesOnlyThroughARoleAreCalledOut() {
    CdcReadiness readiness =
        CdcPrerequisites.evaluate(
            "8.0.36",
            "cdc@%",
            GOOD,
            List.of("GRANT USAGE ON *.* TO `cdc`@`%`", "GRANT `cdc_role`@`%` TO `cdc`@`%`"),
            "lab");

    assertThat(readiness.problems())
        .singleElement()
        .asString()
        .contains("lacks REPLICATION SLAVE, REPLICATION CLIENT, RELOAD, SELECT")
        .contains("granted only through a role");
  }

  @Test
  void binlogOffAndNoServerIdAreNamedWithTheFix() {
    CdcReadiness readiness =
        CdcPrerequisites.evaluate(
            "8.0.36",
            "root@%",
            Map.of(
                "log_bin",
                "OFF",
                "binlog_format",
                "ROW",
                "binlog_row_image",
                "FULL",
                "server_id",
                "0"),
            List.of("GRANT ALL PRIVILEGES ON *.* TO `root`@`%`"),
            "lab");

    assertThat(readiness.ready()).isFalse();
    assertThat(readiness.problems())
        .containsExactly(
            "binary logging is off (log_bin=OFF); the lab reads changes from the binlog: start the"
                + " server with log_bin (e.g. log_bin=mysql-bin and server_id=1 under [mysqld] in"
                + " my.cnf) and restart it",
            "server_id is 0; a binlog source needs a non-zero server id: set server_id=1 (any id no"
                + " replica uses) in the server config and restart the server");
    SourceNotReadyException exception = new SourceNotReadyException(readiness.problems());
    assertThat(exception.getMessage())
        .startsWith("The source is not ready for change capture: binary logging is off")
        .doesNotContain("\n");
  }

  @Test
  void theAccountIsQuotedForAGrant() {
    assertThat(CdcPrerequisites.quotedAccount("lab_cdc@%")).isEqualTo("'lab_cdc'@'%'");
    assertThat(CdcPrerequisites.quotedAccount("a@b@localhost")).isEqualTo("'a@b'@'localhost'");
  }
}
