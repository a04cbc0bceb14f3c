package io.reliabilitylab.record;

import static org.assertj.core.api.Assertions.assertThat;

import io.reliabilitylab.spi.check.CheckResult;
import io.reliabilitylab.spi.check.Evidence;
import io.reliabilitylab.spi.check.EvidenceSample;
import io.reliabilitylab.spi.fault.FaultEvidence;
import io.reliabilitylab.spi.fault.FaultPosition;
import io.reliabilitylab.spi.fault.FaultSpec;
import io.reliabilitylab.spi.fault.FaultStatus;
import io.reliabilitylab.spi.pipeline.JobFailure;
import io.reliabilitylab.spi.pipeline.JobState;
import io.reliabilitylab.spi.secret.Redactor;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** A password given in a JDBC URL, a property or on the command line never reaches a record. */
class RunRecordRedactionTest {

  private static final List<String> SECRETS =
      List.of(
          "urlSecret1",
          "querySecret2",
          "propSecret3",
          "cliSecret4",
          "cliSecret5",
          "diagSecret6",
          "factSecret7",
          "detailSecret8",
          "registered9",
          "exerciseSecret10",
          "exerciseSecret11",
          "hazardSecret12");

  @TempDir Path dir;

  @AfterEach
  void forget() {
    Redactor.clearRegistered();
  }

  private RunRecord recordFullOfSecrets() {
    FaultSpec spec =
        new FaultSpec(
            "srl-fault-1-task-failure", "task-failure", new FaultPosition.Now(), Map.of());
    FaultEvidence evidence =
        new FaultEvidence(
            spec.id(),
            spec.fault(),
            FaultStatus.FIRED,
            SampleRecords.START,
            SampleRecords.START,
            "killed the source reading jdbc:mysql://lab:urlSecret1@db/x",
            Map.of("source.password", "detailSecret8"),
            List.of("restart with --source-password cliSecret5 seen in the exception history"),
            "");
    return RunRecord.builder(SampleRecords.RUN_ID, SampleRecords.START)
        .finishedAt(SampleRecords.START.plusSeconds(5))
        .command(
            List.of(
                "reliability-lab",
                "run",
                "--source-url",
                "jdbc:mysql://lab:urlSecret1@db:3306/lab",
                "--source-password",
                "cliSecret4",
                "--sink-token=cliSecret5"))
        .environment(SampleRecords.environment())
        .scenario(
            ScenarioInfo.of("direct", "task-failure", 7, 10, 10)
                .withKnownHazard("upstream#1: leaks catalog password=hazardSecret12"))
        .configuration("source.jdbc-url", "jdbc:mysql://db:3306/lab?user=lab&password=querySecret2")
        .configuration("source.password", "propSecret3")
        .configuration("sink.catalog", "rest;credential=propSecret3")
        .fault(FaultRecord.of(spec, evidence, null))
        .exercise(
            ExerciseRecord.builder("compaction", SampleRecords.START)
                .fact("catalog", "jdbc:mysql://lab:exerciseSecret10@db/iceberg")
                .fact("catalog_token", "exerciseSecret11")
                .build(SampleRecords.START))
        .check(
            CheckResult.failed(
                "snapshot-diff",
                "could not read jdbc:mysql://lab:urlSecret1@db/x",
                Evidence.builder()
                    .fact("source", "jdbc:mysql://db/x?password=factSecret7")
                    .sample(
                        new EvidenceSample(
                            "missing",
                            "order_id=1",
                            Map.of("note", "registered9"),
                            Map.of(),
                            List.of(),
                            "a row whose text happens to be a registered secret"))
                    .build()))
        .diagnostics(
            Diagnostics.builder("timed out; source.password=diagSecret6", SampleRecords.START)
                .jobState(JobState.FAILING)
                .exceptionHistory(
                    List.of(
                        new JobFailure(
                            SampleRecords.START,
                            "java.sql.SQLException",
                            "Access denied for jdbc:mysql://lab:diagSecret6@db/x",
                            null,
                            null,
                            true)))
                .detail("config", Map.of("source.password", "diagSecret6", "user", "lab"))
                .detail("argv", List.of("--source-password=diagSecret6"))
                .build())
        .claimBoundary("Shows that secrets stay out of records.")
        .build();
  }

  @Test
  void noSecretAppearsInTheWrittenRecord() throws IOException {
    Redactor.register("registered9");

    Path file = new RunRecordWriter(dir).write(recordFullOfSecrets());
    String json = Files.readString(file);

    assertThat(SECRETS).allSatisfy(secret -> assertThat(json).doesNotContain(secret));
    assertThat(json).contains("***").contains("\"user\": \"lab\"");
  }

  @Test
  void theRecordItselfHoldsNoSecretEvenBeforeItIsWritten() {
    RunRecord record = recordFullOfSecrets();

    assertThat(record.command())
        .isEqualTo(
            "reliability-lab run --source-url jdbc:mysql://lab:***@db:3306/lab"
                + " --source-password *** --sink-token=***");
    assertThat(record.effectiveConfiguration())
        .containsEntry("source.password", "***")
        .containsEntry("source.jdbc-url", "jdbc:mysql://db:3306/lab?user=lab&password=***")
        .containsEntry("sink.catalog", "rest;credential=***");
    assertThat(record.toString())
        .doesNotContain(
            "urlSecret1",
            "querySecret2",
            "propSecret3",
            "cliSecret4",
            "cliSecret5",
            "diagSecret6",
            "factSecret7",
            "detailSecret8",
            "exerciseSecret10",
            "exerciseSecret11",
            "hazardSecret12");
  }

  @Test
  void aCommandGivenAsOneLineIsRedactedToo() {
    RunRecord record =
        RunRecord.builder(SampleRecords.RUN_ID, SampleRecords.START)
            .finishedAt(SampleRecords.START)
            .command("java -Dsource.password=propSecret3 -jar lab.jar run --password cliSecret4")
            .environment(SampleRecords.environment())
            .scenario(ScenarioInfo.of("direct", "x", 1, 0, 0))
            .claimBoundary("Shows nothing.")
            .build();

    assertThat(record.command())
        .isEqualTo("java -Dsource.password=*** -jar lab.jar run --password ***");
  }

  @Test
  void aRecordReadBackStillHoldsNoSecretAndEqualsTheWrittenOne() throws IOException {
    RunRecord record = recordFullOfSecrets();

    assertThat(RunRecordReader.read(new RunRecordWriter(dir).write(record))).isEqualTo(record);
  }

  /**
   * Passwords that are also common words, names in the record or one character: the record reads
   * back with every key intact, and the password is gone from where it was given and echoed.
   */
  @ParameterizedTest
  @ValueSource(
      strings = {"a", "b", "lab", "root", "test", "orders", "password", "p@ss\"w{0}rd\\.*$[x]"})
  void aCommonOrShortPasswordNeverCorruptsTheRecord(String password) throws IOException {
    Redactor.register(password);
    RunRecord record =
        RunRecord.builder(SampleRecords.RUN_ID, SampleRecords.START)
            .finishedAt(SampleRecords.START.plusSeconds(5))
            .command(
                List.of(
                    "reliability-lab",
                    "run",
                    "--source-jdbc-url",
                    "jdbc:mysql://127.0.0.1:3306/lab",
                    "--source-user",
                    "lab",
                    "--source-password",
                    password))
            .environment(SampleRecords.environment())
            .scenario(ScenarioInfo.of("direct", "task-failure", 7, 10, 10))
            .configuration("source.table", "orders")
            .fault(SampleRecords.firedFault())
            .check(SampleRecords.snapshotDiff())
            .diagnostics(
                Diagnostics.builder("the source refused the login", SampleRecords.START)
                    .exceptionHistory(
                        List.of(
                            new JobFailure(
                                SampleRecords.START,
                                "java.sql.SQLException",
                                "Access denied for user 'lab' (using password '" + password + "')",
                                null,
                                null,
                                true)))
                    .build())
            .claimBoundary("Shows that a password never breaks a record.")
            .build();

    Path file = new RunRecordWriter(dir).write(record);
    String json = Files.readString(file);
    RunRecord read = RunRecordReader.read(file);

    assertThat(read.environment()).isEqualTo(record.environment());
    assertThat(read.checks()).hasSameSizeAs(record.checks());
    assertThat(json).contains("\"docker_available\"", "\"distribution\"");
    assertThat(read.command()).endsWith("--source-password ***");
    assertThat(read.diagnostics().exceptionHistory().get(0).message())
        .startsWith("Access denied for user ")
        .endsWith(" '***')");
    assertThat(Redactor.redactRegistered(json)).as("nothing left to mask").isEqualTo(json);
  }
}
