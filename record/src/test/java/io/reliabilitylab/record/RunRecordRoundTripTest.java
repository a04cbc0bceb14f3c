package io.reliabilitylab.record;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.reliabilitylab.spi.check.Verdict;
import io.reliabilitylab.spi.fault.FaultStatus;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RunRecordRoundTripTest {

  @TempDir Path dir;

  @Test
  void aFullRecordReadsBackEqual() throws IOException {
    RunRecord record = SampleRecords.full();

    Path file = new RunRecordWriter(dir).write(record);

    assertThat(file).isEqualTo(dir.resolve(SampleRecords.RUN_ID + ".json"));
    assertThat(RunRecordReader.read(file)).isEqualTo(record);
  }

  @Test
  void aMinimalRecordReadsBackEqual() throws IOException {
    RunRecord record = SampleRecords.minimal();

    assertThat(RunRecordReader.read(new RunRecordWriter(dir).write(record))).isEqualTo(record);
  }

  @Test
  void aSuiteSummaryReadsBackEqual() throws IOException {
    SuiteSummary suite =
        SuiteSummary.of(
            "20260820T131700Z-0000abcd",
            SampleRecords.START,
            SampleRecords.START.plusSeconds(200),
            "reliability-lab run --all",
            List.of(SampleRecords.full(), SampleRecords.minimal()));

    Path file = new RunRecordWriter(dir).writeSuite(suite);

    assertThat(file.getFileName()).hasToString("suite-20260820T131700Z-0000abcd.json");
    assertThat(RunRecordReader.readSuite(file)).isEqualTo(suite);
    assertThat(suite.runs().get(0).recoveryTime()).hasMillis(5750);
    assertThat(suite.exitCode()).isEqualTo(ExitCode.INCONCLUSIVE);
  }

  @Test
  void aSuiteWithKnownHazardsReadsBackEqualWithEachOutcome() throws IOException {
    String hazard = SampleRecords.HAZARD;
    SuiteSummary suite =
        SuiteSummary.of(
            "20260820T131700Z-0000abcd",
            SampleRecords.START,
            SampleRecords.START.plusSeconds(200),
            "reliability-lab run --pipeline direct --faults all",
            List.of(
                SampleRecords.savepointRun(1, null, Verdict.PASSED, FaultStatus.FIRED, null),
                SampleRecords.savepointRun(2, null, Verdict.FAILED, FaultStatus.FIRED, null),
                SampleRecords.savepointRun(3, null, Verdict.INCONCLUSIVE, FaultStatus.FIRED, null),
                SampleRecords.savepointRun(4, hazard, Verdict.FAILED, FaultStatus.FIRED, null),
                SampleRecords.savepointRun(5, hazard, Verdict.PASSED, FaultStatus.FIRED, null)));

    Path file = new RunRecordWriter(dir).writeSuite(suite);
    SuiteSummary readBack = RunRecordReader.readSuite(file);
    JsonNode json = RunRecordJson.mapper().readTree(Files.readString(file));

    assertThat(readBack).isEqualTo(suite);
    assertThat(readBack.runs())
        .extracting(SuiteSummary.Entry::outcome)
        .containsExactly(
            "passed",
            "failed",
            "inconclusive",
            "known-hazard-detected",
            "known-hazard-not-reproduced");
    assertThat(readBack.knownHazardsDetected())
        .extracting(SuiteSummary.Entry::runId)
        .containsExactly("20260820T131804Z-0000abcd");
    assertThat(json.at("/runs/3/known_hazard").textValue()).isEqualTo(hazard);
    assertThat(json.at("/runs/3/outcome").textValue()).isEqualTo("known-hazard-detected");
    assertThat(json.at("/runs/0/known_hazard").isNull()).isTrue();
    assertThat(readBack.exitCode()).isEqualTo(ExitCode.FAILED);
  }

  @Test
  void aScenarioKeepsItsKnownHazardThroughTheRecord() throws IOException {
    RunRecord record =
        SampleRecords.savepointRun(
            1, SampleRecords.HAZARD, Verdict.FAILED, FaultStatus.FIRED, null);

    RunRecord readBack = RunRecordReader.fromJson(RunRecordWriter.toJson(record));
    JsonNode json = RunRecordJson.mapper().readTree(RunRecordWriter.toJson(record));

    assertThat(readBack).isEqualTo(record);
    assertThat(readBack.scenario().knownHazard()).isEqualTo(SampleRecords.HAZARD);
    assertThat(readBack.scenario().expectsDivergence()).isTrue();
    assertThat(json.at("/scenario/known_hazard").textValue()).isEqualTo(SampleRecords.HAZARD);
    assertThat(
            RunRecordJson.mapper()
                .readTree(RunRecordWriter.toJson(SampleRecords.full()))
                .at("/scenario/known_hazard")
                .isNull())
        .isTrue();
  }

  @Test
  void theWithMethodsKeepTheKnownHazard() {
    ScenarioInfo info =
        ScenarioInfo.of("direct", "savepoint-restore", 42, 100, 50)
            .withKnownHazard(SampleRecords.HAZARD)
            .withVariant("older-savepoint")
            .withWorkloadDigest(null)
            .withBroker("cdc.orders", null, "lab-42");

    assertThat(info.knownHazard()).isEqualTo(SampleRecords.HAZARD);
    assertThat(info.variant()).isEqualTo("older-savepoint");
    assertThat(info.withKnownHazard(null).knownHazard()).isNull();
    assertThat(ScenarioInfo.of("direct", "x", 1, 0, 0).expectsDivergence()).isFalse();
    assertThatThrownBy(() -> info.withKnownHazard(" "))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("apache/iceberg#10892");
  }

  @Test
  void theJsonUsesSnakeCaseTextPositionsIsoInstantsAndMilliseconds() throws IOException {
    JsonNode json = RunRecordJson.mapper().readTree(RunRecordWriter.toJson(SampleRecords.full()));

    assertThat(json.get("schema_version").intValue()).isEqualTo(RunRecord.SCHEMA_VERSION);
    assertThat(json.get("run_id").textValue()).isEqualTo(SampleRecords.RUN_ID);
    assertThat(json.get("started_at").textValue()).isEqualTo("2026-08-20T13:17:52Z");
    JsonNode fault = json.get("faults").get(0);
    assertThat(fault.get("spec").get("position").textValue())
        .isEqualTo("around-commit:3:after-swap");
    assertThat(fault.get("recovery_ms").longValue()).isEqualTo(5750);
    assertThat(fault.get("evidence").get("fault_id").textValue())
        .isEqualTo("srl-fault-1-poison-message");
    assertThat(json.get("timings_ms").get("recovery").longValue()).isEqualTo(6000);
    assertThat(json.get("linkage").get("final").get("checkpoint").get("id").longValue())
        .isEqualTo(22);
    assertThat(json.get("quarantine").get("affected_keys").get(1).textValue()).isEqualTo("42|eu");
    assertThat(json.get("summary").get("exit_code").intValue()).isZero();
    assertThat(
            json.get("diagnostics")
                .get("last_checkpoints")
                .get(0)
                .get("alignment_duration")
                .longValue())
        .isEqualTo(12);
    assertThat(json.get("dlq").get(0).has("original_value_sha256")).isTrue();
  }

  @Test
  void theOutputIsStableAndPretty() {
    String first = RunRecordWriter.toJson(SampleRecords.full());
    String second = RunRecordWriter.toJson(SampleRecords.full());

    assertThat(first).isEqualTo(second).startsWith("{\n  \"schema_version\": 1,\n");
    assertThat(first).endsWith("}\n").doesNotContain("\r");
    List<String> stackKeys = new ArrayList<>();
    try {
      RunRecordJson.mapper()
          .readTree(first)
          .get("stack_versions")
          .fieldNames()
          .forEachRemaining(stackKeys::add);
    } catch (IOException e) {
      throw new AssertionError(e);
    }
    assertThat(stackKeys).isSorted();
  }

  @Test
  void theFileIsUtf8() throws IOException {
    RunRecord record =
        RunRecord.builder(SampleRecords.RUN_ID, SampleRecords.START)
            .finishedAt(SampleRecords.START)
            .environment(SampleRecords.environment())
            .scenario(io.reliabilitylab.record.ScenarioInfo.of("direct", "zeit–ü", 1, 0, 0))
            .claimBoundary("Shows nothing.")
            .build();

    Path file = new RunRecordWriter(dir).write(record);

    assertThat(Files.readString(file, StandardCharsets.UTF_8)).contains("zeit–ü");
    assertThat(RunRecordReader.read(file).scenario().name()).isEqualTo("zeit–ü");
  }

  @Test
  void theRecordIsImmutable() {
    RunRecord record = SampleRecords.full();

    assertThatThrownBy(() -> record.checks().clear())
        .isInstanceOf(UnsupportedOperationException.class);
    assertThatThrownBy(() -> record.effectiveConfiguration().put("x", "y"))
        .isInstanceOf(UnsupportedOperationException.class);
    assertThatThrownBy(() -> record.faults().get(0).connectorStatusDuringInjection().put("x", "y"))
        .isInstanceOf(UnsupportedOperationException.class);
  }

  @Test
  void theSummaryIsComputedFromChecksAndFaults() {
    Summary summary = SampleRecords.full().summary();
    assertThat(summary.verdict()).isEqualTo(Verdict.PASSED);
    assertThat(summary.checksPassed()).isEqualTo(2);
    assertThat(summary.faultsFired()).isEqualTo(1);
    assertThat(summary.dlqRecordCount()).isEqualTo(1);

    // A second fault that was skipped: the run cannot read as passed.
    summary = SampleRecords.withSkippedFault().summary();
    assertThat(summary.verdict()).isEqualTo(Verdict.INCONCLUSIVE);
    assertThat(summary.faultsSkipped()).isEqualTo(1);
    assertThat(summary.skippedFaults())
        .containsExactly(
            "srl-fault-2-broker-restart (broker-restart): the pipeline has no BrokerControl");
    assertThat(summary.dlqRecordCount()).isEqualTo(1);
  }

  @Test
  void readingAllRecordsOfADirectorySkipsSuitesAndOtherFiles() throws IOException {
    RunRecordWriter writer = new RunRecordWriter(dir);
    writer.write(SampleRecords.minimal());
    writer.write(SampleRecords.full());
    writer.writeSuite(
        SuiteSummary.of(
            "20260820T131700Z-0000abcd",
            SampleRecords.START,
            SampleRecords.START,
            "x",
            List.of(SampleRecords.full())));
    Files.writeString(dir.resolve("notes.json"), "{}");

    assertThat(RunRecordReader.readDirectory(dir))
        .extracting(RunRecord::runId)
        .containsExactly(SampleRecords.RUN_ID, "20260820T140000Z-00000001");
  }

  @Test
  void aFileOfAnotherSchemaVersionIsRefusedWithItsName() throws IOException {
    Path file = dir.resolve("20260820T131752Z-2aea4b71.json");
    Files.writeString(
        file,
        RunRecordWriter.toJson(SampleRecords.full())
            .replace("\"schema_version\": 1", "\"schema_version\": 9"));

    assertThatThrownBy(() -> RunRecordReader.read(file))
        .isInstanceOf(IOException.class)
        .hasMessageContaining(file.toString())
        .hasMessageContaining("schema_version 9");
  }

  @Test
  void brokenFilesAreRefusedWithAClearMessage() {
    assertThatThrownBy(() -> RunRecordReader.fromJson("{not json"))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("not valid JSON");
    assertThatThrownBy(() -> RunRecordReader.fromJson("{\"run_id\": \"x\"}"))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("no schema_version");
    assertThatThrownBy(() -> RunRecordReader.fromJson("{\"schema_version\": 1}"))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("not a valid RunRecord");
    assertThatThrownBy(() -> RunRecordReader.read(dir.resolve("missing.json")))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("missing.json");
  }

  @Test
  void aRunIdHasItsDocumentedForm() {
    String id = RunId.next(SampleRecords.START);

    assertThat(id).matches("20260820T131752Z-[0-9a-f]{8}");
    assertThatThrownBy(() -> RunId.requireValid("run-1"))
        .hasMessageContaining("20260820T131949Z-2aea4b71");
  }

  @Test
  void aRecordNeedsItsEssentials() {
    assertThatThrownBy(() -> RunRecord.builder(SampleRecords.RUN_ID, SampleRecords.START).build())
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("environment, scenario, claimBoundary, finishedAt");
  }
}
