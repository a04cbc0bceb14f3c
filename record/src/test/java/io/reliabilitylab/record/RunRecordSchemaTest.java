package io.reliabilitylab.record;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SchemaValidatorsConfig;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import io.reliabilitylab.spi.check.CheckResult;
import io.reliabilitylab.spi.check.Evidence;
import io.reliabilitylab.spi.check.Verdict;
import io.reliabilitylab.spi.fault.FaultEvidence;
import io.reliabilitylab.spi.fault.FaultPosition;
import io.reliabilitylab.spi.fault.FaultSpec;
import io.reliabilitylab.spi.fault.FaultStatus;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class RunRecordSchemaTest {

  private static JsonSchema runSchema;
  private static JsonSchema suiteSchema;

  @BeforeAll
  static void loadSchemas() throws IOException {
    runSchema = load("run-record.schema.json");
    suiteSchema = load("suite-summary.schema.json");
  }

  private static JsonSchema load(String name) throws IOException {
    JsonSchemaFactory factory = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012);
    SchemaValidatorsConfig config =
        SchemaValidatorsConfig.builder().formatAssertionsEnabled(true).build();
    try (InputStream in = RunRecord.class.getResourceAsStream(name)) {
      assertThat(in).as("schema resource %s", name).isNotNull();
      return factory.getSchema(in, config);
    }
  }

  private static ObjectNode tree(Object value) {
    try {
      String json =
          value instanceof RunRecord run
              ? RunRecordWriter.toJson(run)
              : RunRecordWriter.toJson((SuiteSummary) value);
      return (ObjectNode) RunRecordJson.mapper().readTree(json);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Test
  void theSchemaIdNamesTheSchemaVersion() {
    JsonNode schema = runSchema.getSchemaNode();

    assertThat(schema.get("$schema").textValue())
        .isEqualTo("https://json-schema.org/draft/2020-12/schema");
    assertThat(schema.get("$id").textValue()).contains("/" + RunRecord.SCHEMA_VERSION + "/");
    assertThat(schema.at("/properties/schema_version/const").intValue())
        .isEqualTo(RunRecord.SCHEMA_VERSION);
    assertThat(suiteSchema.getSchemaNode().get("$id").textValue())
        .contains("/" + RunRecord.SCHEMA_VERSION + "/");
  }

  @Test
  void aFullRecordIsValid() {
    assertThat(runSchema.validate(tree(SampleRecords.full()))).isEmpty();
  }

  @Test
  void aMinimalRecordIsValid() {
    assertThat(runSchema.validate(tree(SampleRecords.minimal()))).isEmpty();
  }

  @Test
  void aFailedRecordIsValid() {
    FaultSpec spec =
        new FaultSpec(
            "srl-fault-1-task-failure", "task-failure", new FaultPosition.AfterEvent(50), Map.of());
    RunRecord failed =
        RunRecord.builder(SampleRecords.RUN_ID, SampleRecords.START)
            .finishedAt(SampleRecords.START.plusSeconds(90))
            .environment(SampleRecords.environment())
            .scenario(ScenarioInfo.of("direct", "task-failure", 7, 100, 50))
            .fault(
                FaultRecord.of(
                    spec,
                    new FaultEvidence(
                        spec.id(),
                        spec.fault(),
                        FaultStatus.NOT_PROVEN,
                        SampleRecords.START.plusSeconds(10),
                        null,
                        "threw in the source",
                        Map.of(),
                        List.of(),
                        "the fault id never appeared in the exception history"),
                    null))
            .check(
                CheckResult.failed(
                    "snapshot-diff",
                    "2 rows missing",
                    Evidence.builder().count("missing", 2).build()))
            .check(CheckResult.missingInput("changelog-completeness", "changelog"))
            .diagnostics(SampleRecords.diagnostics())
            .snapshotDiffCount(2)
            .claimBoundary("Shows nothing about recovery: the fault was not proven.")
            .build();

    assertThat(failed.summary().exitCode().code()).isEqualTo(1);
    assertThat(runSchema.validate(tree(failed))).isEmpty();
  }

  @Test
  void aSuiteSummaryIsValid() {
    SuiteSummary suite =
        SuiteSummary.of(
            "20260820T131700Z-0000abcd",
            SampleRecords.START,
            SampleRecords.START.plusSeconds(300),
            "reliability-lab run --all",
            List.of(SampleRecords.full(), SampleRecords.minimal()));

    assertThat(suiteSchema.validate(tree(suite))).isEmpty();
  }

  static Stream<Arguments> brokenRecords() {
    return Stream.of(
        broken("without a claim boundary", run -> run.remove("claim_boundary"), "claim_boundary"),
        broken("without a run id", run -> run.remove("run_id"), "run_id"),
        broken(
            "without a summary's exit code",
            run -> ((ObjectNode) run.get("summary")).remove("exit_code"),
            "exit_code"),
        broken(
            "without a fault's evidence",
            run -> ((ObjectNode) run.get("faults").get(0)).remove("evidence"),
            "evidence"),
        broken(
            "with a start time that is a number",
            run -> run.put("started_at", 1787231872),
            "started_at"),
        broken(
            "with a start time that is not a date",
            run -> run.put("started_at", "yesterday"),
            "started_at"),
        broken(
            "with an exit code that is text",
            run -> ((ObjectNode) run.get("summary")).put("exit_code", "zero"),
            "exit_code"),
        broken(
            "with an unknown exit code",
            run -> ((ObjectNode) run.get("summary")).put("exit_code", 7),
            "exit_code"),
        broken(
            "passing with a non-zero exit code",
            run -> ((ObjectNode) run.get("summary")).set("exit_code", IntNode.valueOf(1)),
            "exit_code"),
        broken(
            "with a wall-clock fault position",
            run -> ((ObjectNode) run.at("/faults/0/spec")).put("position", "at 13:18"),
            "position"),
        broken(
            "with a recovery time in text",
            run -> ((ObjectNode) run.get("faults").get(0)).put("recovery_ms", "5 s"),
            "recovery_ms"),
        broken(
            "with a DLQ payload in plain text",
            run -> ((ObjectNode) run.get("dlq").get(0)).put("original_value_base64", "eyJ9"),
            "original_value_base64"),
        broken(
            "with a DLQ digest that is not SHA-256",
            run -> ((ObjectNode) run.get("dlq").get(0)).put("original_value_sha256", "abc"),
            "original_value_sha256"),
        broken("of another schema version", run -> run.put("schema_version", 2), "schema_version"),
        broken(
            "with a verdict outside the three",
            run -> ((ObjectNode) run.get("checks").get(0)).set("verdict", TextNode.valueOf("OK")),
            "verdict"),
        broken(
            "with a fired fault without proof",
            run -> ((ObjectNode) run.at("/faults/0/evidence")).set("proofs", new ArrayNode(null)),
            "proofs"),
        broken(
            "with a negative phase time",
            run -> ((ObjectNode) run.get("timings_ms")).put("baseline", -1),
            "baseline"),
        broken(
            "with an unknown top-level field", run -> run.put("password", "hunter2"), "password"),
        broken("without its exercises", run -> run.remove("exercises"), "exercises"),
        broken(
            "with an exercise figure in text",
            run -> ((ObjectNode) run.at("/exercises/0/figures")).put("drain_ms", "23 s"),
            "drain_ms"),
        broken(
            "with a fractional exercise figure",
            run -> ((ObjectNode) run.at("/exercises/0/figures")).put("drain_ms", 23.4),
            "drain_ms"),
        broken(
            "with an exercise figure without a name",
            run -> ((ObjectNode) run.at("/exercises/1/figures")).put(" ", 4),
            "figures"),
        broken(
            "with an exercise named in prose",
            run -> ((ObjectNode) run.at("/exercises/1")).put("name", "Table compaction"),
            "name"),
        broken(
            "with an exercise fact that is a number",
            run -> ((ObjectNode) run.at("/exercises/1/facts")).put("conflicts", 1),
            "conflicts"),
        broken(
            "with an exercise without a name",
            run -> ((ObjectNode) run.at("/exercises/0")).remove("name"),
            "name"),
        broken(
            "with an exercise without its finish time",
            run -> ((ObjectNode) run.at("/exercises/1")).remove("finished_at"),
            "finished_at"),
        broken(
            "with a series sample before the exercise started",
            run -> ((ObjectNode) run.at("/exercises/0/series/1")).put("at_ms", -5),
            "at_ms"),
        broken(
            "with a series sample without its value",
            run -> ((ObjectNode) run.at("/exercises/0/series/0")).remove("value"),
            "value"),
        broken(
            "with an unknown exercise field",
            run -> ((ObjectNode) run.at("/exercises/0")).put("verdict", "PASSED"),
            "verdict"),
        broken(
            "with a known hazard that is not text",
            run -> ((ObjectNode) run.get("scenario")).put("known_hazard", 10892),
            "known_hazard"),
        broken(
            "without the scenario's known hazard",
            run -> ((ObjectNode) run.get("scenario")).remove("known_hazard"),
            "known_hazard"));
  }

  private static Arguments broken(String what, Consumer<ObjectNode> damage, String field) {
    return Arguments.of(what, damage, field);
  }

  @ParameterizedTest(name = "a record {0} is rejected")
  @MethodSource("brokenRecords")
  void aBrokenRecordIsRejected(String what, Consumer<ObjectNode> damage, String field) {
    ObjectNode run = tree(SampleRecords.full());
    assertThat(runSchema.validate(run)).isEmpty();

    damage.accept(run);
    Set<ValidationMessage> errors = runSchema.validate(run);

    assertThat(errors).as(what).isNotEmpty();
    assertThat(errors.toString()).as(what).contains(field);
  }

  @Test
  void aRecordWithAKnownHazardIsValid() {
    RunRecord hazard =
        SampleRecords.savepointRun(
            1, SampleRecords.HAZARD, Verdict.FAILED, FaultStatus.FIRED, null);

    assertThat(runSchema.validate(tree(hazard))).isEmpty();
  }

  private static SuiteSummary suiteOfEveryOutcome() {
    String hazard = SampleRecords.HAZARD;
    return SuiteSummary.of(
        "20260820T131700Z-0000abcd",
        SampleRecords.START,
        SampleRecords.START.plusSeconds(300),
        "reliability-lab run --pipeline direct --faults all",
        List.of(
            SampleRecords.savepointRun(1, null, Verdict.PASSED, FaultStatus.FIRED, null),
            SampleRecords.savepointRun(2, null, Verdict.FAILED, FaultStatus.FIRED, null),
            SampleRecords.savepointRun(3, null, Verdict.INCONCLUSIVE, FaultStatus.FIRED, null),
            SampleRecords.savepointRun(4, hazard, Verdict.FAILED, FaultStatus.FIRED, null),
            SampleRecords.savepointRun(5, hazard, Verdict.PASSED, FaultStatus.FIRED, null),
            SampleRecords.savepointRun(6, hazard, Verdict.FAILED, FaultStatus.NOT_PROVEN, null)));
  }

  @Test
  void aSuiteSummaryWithEveryOutcomeIsValid() {
    SuiteSummary suite = suiteOfEveryOutcome();

    assertThat(suite.runs())
        .extracting(SuiteSummary.Entry::outcome)
        .containsExactly(
            "passed",
            "failed",
            "inconclusive",
            "known-hazard-detected",
            "known-hazard-not-reproduced",
            "failed");
    assertThat(suiteSchema.validate(tree(suite))).isEmpty();
  }

  static Stream<Arguments> brokenSuites() {
    return Stream.of(
        broken(
            "with an outcome outside the five",
            suite -> ((ObjectNode) suite.at("/runs/0")).put("outcome", "expected"),
            "outcome"),
        broken(
            "without an entry's outcome",
            suite -> ((ObjectNode) suite.at("/runs/0")).remove("outcome"),
            "outcome"),
        broken(
            "without an entry's known hazard",
            suite -> ((ObjectNode) suite.at("/runs/3")).remove("known_hazard"),
            "known_hazard"),
        broken(
            "with a hazard detected but no hazard named",
            suite -> ((ObjectNode) suite.at("/runs/3")).putNull("known_hazard"),
            "known_hazard"),
        broken(
            "with a hazard detected by a run that passed",
            suite -> ((ObjectNode) suite.at("/runs/3")).put("verdict", "PASSED"),
            "verdict"),
        broken(
            "with a hazard not reproduced by a run that failed",
            suite -> ((ObjectNode) suite.at("/runs/4")).put("verdict", "FAILED"),
            "verdict"),
        broken(
            "with a passed outcome for a failed run",
            suite -> ((ObjectNode) suite.at("/runs/1")).put("outcome", "passed"),
            "verdict"),
        broken(
            "with a blank known hazard",
            suite -> ((ObjectNode) suite.at("/runs/4")).put("known_hazard", ""),
            "known_hazard"));
  }

  @ParameterizedTest(name = "a suite summary {0} is rejected")
  @MethodSource("brokenSuites")
  void aBrokenSuiteSummaryIsRejected(String what, Consumer<ObjectNode> damage, String field) {
    ObjectNode suite = tree(suiteOfEveryOutcome());
    assertThat(suiteSchema.validate(suite)).isEmpty();

    damage.accept(suite);
    Set<ValidationMessage> errors = suiteSchema.validate(suite);

    assertThat(errors).as(what).isNotEmpty();
    assertThat(errors.toString()).as(what).contains(field);
  }

  @Test
  void aSuiteSummaryWithoutItsRunsOrWithATextExitCodeIsRejected() {
    SuiteSummary suite =
        SuiteSummary.of(
            "20260820T131700Z-0000abcd",
            SampleRecords.START,
            SampleRecords.START,
            "x",
            List.of(SampleRecords.full()));
    ObjectNode withoutRuns = tree(suite);
    withoutRuns.remove("runs");
    ObjectNode textExitCode = tree(suite);
    textExitCode.put("exit_code", "0");

    assertThat(suiteSchema.validate(withoutRuns).toString()).contains("runs");
    assertThat(suiteSchema.validate(textExitCode).toString()).contains("exit_code");
  }
}
