package io.reliabilitylab.pipeline.broker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.reliabilitylab.harness.cli.ReliabilityLab;
import io.reliabilitylab.pipeline.broker.source.DebeziumPublisher;
import io.reliabilitylab.record.ExitCode;
import io.reliabilitylab.record.RunRecord;
import io.reliabilitylab.record.RunRecordReader;
import io.reliabilitylab.source.mysql.MySqlContainerDatabase;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The broker pipeline on a MySQL 8 source (a Testcontainer), where Docker runs: the lab picks
 * Debezium's MySQL connector and the run reconciles. Skipped without Docker; the connector choice
 * itself is unit-tested ({@code DebeziumPublisherBuilderTest}) and the MariaDB path runs in CI.
 */
class BrokerOnMySql8IT {

  @TempDir Path out;

  @Test
  void aBaselineOnMySql8UsesTheMySqlConnectorAndPasses() throws Exception {
    assumeTrue(MySqlContainerDatabase.dockerAvailable(), "no Docker engine on this machine");
    StringWriter stdout = new StringWriter();
    StringWriter stderr = new StringWriter();
    int exit =
        new ReliabilityLab(
                new PrintWriter(stdout), new PrintWriter(stderr), getClass().getClassLoader())
            .execute(
                "run",
                "--pipeline",
                "broker",
                "--source-container",
                "--faults",
                "none",
                "--events",
                "300",
                "--out",
                out.toString());

    assertThat(exit)
        .as("stdout:%n%s%nstderr:%n%s", stdout, stderr)
        .isEqualTo(ExitCode.PASSED.code());
    List<RunRecord> records = RunRecordReader.readDirectory(out);
    assertThat(records).hasSize(1);
    assertThat(records.get(0).effectiveConfiguration())
        .containsEntry(
            "connector.debezium.connector.class", DebeziumPublisher.MYSQL_CONNECTOR_CLASS);
  }
}
