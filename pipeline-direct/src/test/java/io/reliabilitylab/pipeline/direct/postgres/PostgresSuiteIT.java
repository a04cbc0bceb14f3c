package io.reliabilitylab.pipeline.direct.postgres;

import static io.reliabilitylab.pipeline.direct.RunRecordChecks.check;
import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.reliabilitylab.faults.TaskFailureInjector;
import io.reliabilitylab.faults.WalSenderTerminationInjector;
import io.reliabilitylab.harness.cli.ReliabilityLab;
import io.reliabilitylab.pipeline.direct.DirectPipelineProvider;
import io.reliabilitylab.pipeline.direct.faults.VariantEvidence;
import io.reliabilitylab.pipeline.direct.job.DirectJobConfig;
import io.reliabilitylab.pipeline.flink.sink.JobVariant;
import io.reliabilitylab.record.ExitCode;
import io.reliabilitylab.record.FaultRecord;
import io.reliabilitylab.record.RunRecord;
import io.reliabilitylab.record.RunRecordReader;
import io.reliabilitylab.runner.FaultSelection;
import io.reliabilitylab.runner.discovery.Discovered;
import io.reliabilitylab.runner.phase.RunningPipeline;
import io.reliabilitylab.runner.phase.SourceResumePhase;
import io.reliabilitylab.source.postgres.EmbeddedPostgres;
import io.reliabilitylab.source.postgres.Lsn;
import io.reliabilitylab.source.postgres.PostgresBinaries;
import io.reliabilitylab.spi.check.CheckResult;
import io.reliabilitylab.spi.check.Verdict;
import io.reliabilitylab.spi.fault.FaultStatus;
import io.reliabilitylab.spi.pipeline.LabOptions;
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
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * The direct pipeline on PostgreSQL: the README's suite command with {@code --source postgres} (but
 * for the network faults that act alike on either engine, see {@link #planned()}) runs every Flink
 * failure class on an embedded server and passes, each fault proven and reconciled; the job's
 * replication slot lives as long as the pipeline; an external server without logical decoding stops
 * the run with one line naming {@code wal_level} and its fix.
 */
class PostgresSuiteIT {

  private static final String SHADED_CONNECTION =
      "io.reliabilitylab.shaded.cdc.io.debezium.connector.postgresql.connection.";
  private static final String WAL_POSITION_LOCATOR = SHADED_CONNECTION + "WalPositionLocator";
  private static final String MESSAGE_DECODER = SHADED_CONNECTION + "AbstractMessageDecoder";

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

  /**
   * Variants whose fault lives in the sink or the checkpoint coordinator alone, with nothing of the
   * source's restore that the default variants of their classes do not exercise on PostgreSQL too:
   * they run on MariaDB in {@code RunCommandIT}.
   */
  /** The last seed the FLINK-39265 test tries. */
  private static final int LAST_SEED = 5;

  private static final Set<String> SINK_SIDE_VARIANTS =
      Set.of(
          "checkpoint-failure:expired",
          "sink-commit-failure:fail-after-swap",
          "sink-commit-failure:commit-state-unknown",
          "sink-commit-failure:several-pending");

  /**
   * What {@code --faults all} plans on PostgreSQL, but of the network faults only the cut source
   * link (the walsender's reconnection through the proxy), no {@code source-connection-loss} (on
   * PostgreSQL it is {@code walsender-terminated} by another name) and none of the {@link
   * #SINK_SIDE_VARIANTS}: the others act the same on either engine and run on MariaDB in {@code
   * RunCommandIT}, and CI has minutes to spare, not more.
   */
  private static List<FaultSelection.Choice> planned() {
    return FaultSelection.parse(
            "all",
            Discovered.faults(PostgresSuiteIT.class.getClassLoader()).requireNoProblems().all(),
            new DirectPipelineProvider()
                .capabilities(Map.of(LabOptions.SOURCE_ENGINE, LabOptions.POSTGRESQL)))
        .stream()
        .filter(
            choice ->
                !choice.fault().name().startsWith("network-")
                    || choice.scenarioName().equals("network-partition:reset"))
        .filter(choice -> !choice.fault().name().equals("source-connection-loss"))
        .filter(choice -> !SINK_SIDE_VARIANTS.contains(choice.scenarioName()))
        // run by hand on PostgreSQL (checkpoint 5 after 18 rows, passed); in CI on MariaDB only:
        // chunks of 4 rows cost PostgreSQL some 20 s
        .filter(choice -> !choice.scenarioName().equals("task-exception:snapshot-splits"))
        .toList();
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
                planned().stream()
                    .map(choice -> choice.fault().name() + ":" + choice.variant().name())
                    .collect(Collectors.joining(",")),
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
    planned().forEach(choice -> expected.add(choice.scenarioName()));
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
      // every stream of the job's slot started where the job asked: the slot never stood ahead
      // of a checkpoint the job restored from
      CheckResult resume = check(run, SourceResumePhase.NAME);
      assertThat(resume.evidence().count("starts")).as(scenario).isPositive();
      if (run.scenario().knownHazard() == null) {
        assertThat(resume.verdict())
            .as(scenario + ": " + resume.summary())
            .isEqualTo(Verdict.PASSED);
        assertThat(run.summary().passed()).as(scenario + ": " + run.summary().reasons()).isTrue();
      } else {
        assertThat(run.summary().verdict()).as(scenario).isIn(Verdict.FAILED, Verdict.PASSED);
      }
    }
    VariantEvidence.assertSourceSideVariantsEvidence(byScenario);
    walSenderTerminatedAndReplaced(byScenario.get(WalSenderTerminationInjector.NAME));
    assertThat(stdout.toString())
        .contains("on embedded-postgres (jdbc:postgresql://127.0.0.1:")
        .doesNotContain("WARN", "ERROR", "Exception");
  }

  /**
   * The walsender of the run's own slot was terminated mid-stream (the workload had written since
   * the fault was armed) and another walsender took the slot over before recovery was counted.
   */
  private static void walSenderTerminatedAndReplaced(RunRecord run) {
    assertThat(run).as(WalSenderTerminationInjector.NAME + " ran").isNotNull();
    Map<String, String> fired = run.faults().get(0).evidence().details();
    Map<String, String> recovered = run.faults().get(0).recovery().details();
    assertThat(fired)
        .containsEntry("slot", run.effectiveConfiguration().get("source.slot"))
        .containsKeys("walsender_pid", "walsender_sent_lsn", "wal_end_at_termination", "gone_at");
    // the workload wrote since the fault was armed: the stream was busy, not idle
    assertThat(Lsn.parse(fired.get("wal_end_at_termination")))
        .isGreaterThan(Lsn.parse(fired.get("wal_end_when_armed")));
    assertThat(fired.get("walsender_client")).startsWith("127.0.0.1:");
    assertThat(recovered).containsKeys("new_walsender_pid", "reconnected_after_ms");
    assertThat(recovered.get("new_walsender_pid")).isNotEqualTo(fired.get("walsender_pid"));
  }

  /**
   * A source that confirms to its slot what it has read ({@code
   * broken-source-commits-read-position}, Flink CDC's behaviour before apache/flink-cdc#2539): a
   * failure in a checkpoint's synchronous phase, or a walsender the server terminated, restores a
   * checkpoint whose position the slot was confirmed past while the workload wrote, and PostgreSQL
   * starts the stream at the slot's; {@code source-resume} reads that in the server's log. The
   * baseline, which never restores, passes.
   */
  @Test
  void aSlotConfirmedAheadOfTheRestoredCheckpointFailsSourceResume() throws Exception {
    Path directory = out.resolve("commits-read-position");
    StringWriter stdout = new StringWriter();
    int exit =
        lab(stdout, new StringWriter())
            .execute(
                "run",
                "--pipeline",
                "direct",
                "--source",
                "postgres",
                "--faults",
                "checkpoint-failure:restart-sync,walsender-terminated",
                "--pipeline-option",
                "job.variant=" + JobVariant.BROKEN_SOURCE_COMMITS_READ_POSITION.text(),
                "--events",
                "1000",
                "--seed",
                "7",
                "--out",
                directory.toString());
    List<RunRecord> runs = RunRecordReader.readDirectory(directory);
    RunRecord baseline =
        runs.stream().filter(r -> r.scenario().name().equals("baseline")).findFirst().orElseThrow();
    assertThat(baseline.summary().passed()).as("%s", baseline.summary().reasons()).isTrue();
    assertThat(exit).as("exit code; stdout:%n%s", stdout).isEqualTo(ExitCode.FAILED.code());
    for (String scenario : List.of("checkpoint-failure:restart-sync", "walsender-terminated")) {
      RunRecord restored =
          runs.stream().filter(r -> r.scenario().name().equals(scenario)).findFirst().orElseThrow();
      CheckResult resume = check(restored, SourceResumePhase.NAME);
      assertThat(resume.verdict())
          .as("%s: %s", scenario, resume.evidence())
          .isEqualTo(Verdict.FAILED);
      assertThat(resume.evidence().samples())
          .first()
          .satisfies(
              sample -> {
                assertThat(sample.kind()).isEqualTo("skipped_wal");
                assertThat(sample.note()).contains("the job asked for ", "confirmed to ");
              });
    }
  }

  /**
   * FLINK-39265 (apache/flink-cdc#4323, closed unmerged): with heartbeats, a checkpoint taken while
   * the source is idle after a commit holds that commit's end as both its last commit and its last
   * change LSN; Debezium 1.9's WAL position locator then treats the first change of the next
   * transaction, which pgoutput reports at that same LSN, as already processed. Debezium's own log
   * says when it did; the lab's checks must then report exactly a loss (nothing duplicated), and
   * pass when it did not. 100 ms heartbeats make it likely (17 of 24 such restores here); the
   * default 30 s kept it away from the suite above (0 of 12). The known-hazard variant {@code
   * task-failure:heartbeats-after-idle-commit} sets those heartbeats itself and reports the loss as
   * the hazard it is, or as not reproduced.
   */
  @Test
  void theFlink39265VariantReportsTheLostChangeAsAKnownHazardOrAsNotReproduced() throws Exception {
    // up to three seeds, so that the loss is seen here most of the time, not only the pass
    for (int seed = 3; seed <= LAST_SEED; seed++) {
      if (restoreWithHeartbeats(seed, out.resolve("seed-" + seed))) {
        return;
      }
    }
  }

  /**
   * Runs the FLINK-39265 variant (100 ms heartbeats, set by the variant) and holds the checks and
   * the suite's outcome to Debezium's log; returns whether the change was lost.
   */
  private static boolean restoreWithHeartbeats(int seed, Path directory) throws Exception {
    ListAppender<ILoggingEvent> debezium = new ListAppender<>();
    debezium.start();
    List<Logger> loggers =
        List.of(WAL_POSITION_LOCATOR, MESSAGE_DECODER).stream()
            .map(name -> (Logger) LoggerFactory.getLogger(name))
            .toList();
    loggers.forEach(
        logger -> {
          logger.setLevel(Level.INFO);
          logger.addAppender(debezium);
        });
    int exit;
    try {
      exit =
          lab(new StringWriter(), new StringWriter())
              .execute(
                  "run",
                  "--pipeline",
                  "direct",
                  "--source",
                  "postgres",
                  "--faults",
                  "task-failure:" + TaskFailureInjector.HEARTBEATS_AFTER_IDLE_COMMIT,
                  "--events",
                  "600",
                  "--seed",
                  Integer.toString(seed),
                  "--out",
                  directory.toString());
    } finally {
      loggers.forEach(logger -> logger.detachAppender(debezium));
    }
    RunRecord restored =
        RunRecordReader.readDirectory(directory).stream()
            .filter(r -> r.scenario().name().startsWith("task-failure"))
            .findFirst()
            .orElseThrow();
    assertThat(restored.faults())
        .singleElement()
        .satisfies(fault -> assertThat(fault.evidence().status()).isEqualTo(FaultStatus.FIRED));
    assertThat(restored.scenario().knownHazard()).startsWith("FLINK-39265");
    assertThat(restored.effectiveConfiguration())
        .containsEntry(DirectJobConfig.HEARTBEAT_INTERVAL_OPTION, "100");
    List<String> lines = debezium.list.stream().map(ILoggingEvent::getFormattedMessage).toList();
    if (DebeziumResumeLog.changeSkippedAtAnIdleCommit(lines)
        && exit == ExitCode.INCONCLUSIVE.code()
        && restored.summary().passed()
        && seed < LAST_SEED) {
      // seen once in CI on a loaded machine: Debezium logged a skip, yet every change arrived; the
      // next seed decides (the last one must agree with the log)
      return false;
    }
    if (!DebeziumResumeLog.changeSkippedAtAnIdleCommit(lines)) {
      // not reproduced: the checks pass, and the suite cannot call it either way
      assertThat(restored.summary().passed()).as("%s", restored.summary().reasons()).isTrue();
      assertThat(exit).isEqualTo(ExitCode.INCONCLUSIVE.code());
      return false;
    }
    // reproduced: the checks fail, which is the hazard detected, and the suite passes
    assertThat(exit).isEqualTo(ExitCode.PASSED.code());
    CheckResult completeness = check(restored, "changelog-completeness");
    assertThat(completeness.verdict()).isEqualTo(Verdict.FAILED);
    assertThat(completeness.summary())
        .containsPattern(" [12] missing, 0 unexpected")
        .doesNotContain("duplicate envelopes");
    return true;
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
