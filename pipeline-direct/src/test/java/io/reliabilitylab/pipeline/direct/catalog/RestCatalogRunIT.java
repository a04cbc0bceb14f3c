package io.reliabilitylab.pipeline.direct.catalog;

import static io.reliabilitylab.pipeline.direct.RunRecordChecks.assertDuplicatedEventIds;
import static org.assertj.core.api.Assertions.assertThat;

import io.reliabilitylab.catalog.rest.EmbeddedRestCatalog;
import io.reliabilitylab.harness.cli.ReliabilityLab;
import io.reliabilitylab.objectstore.EmbeddedObjectStore;
import io.reliabilitylab.pipeline.flink.catalog.EmbeddedSinkCatalog;
import io.reliabilitylab.record.ExitCode;
import io.reliabilitylab.record.FaultRecord;
import io.reliabilitylab.record.RunRecord;
import io.reliabilitylab.record.RunRecordReader;
import io.reliabilitylab.spi.fault.FaultStatus;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.iceberg.aws.s3.S3FileIO;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README's direct suite on the embedded REST catalog and object store: {@code run --pipeline
 * direct --sink-catalog embedded-rest} with the faults that touch the catalog's commits — a
 * checkpoint that fails and is restored, a commit that fails, both faults at the catalog service —
 * passes, every table file and checkpoint on the object store. (The other failure classes restore
 * the same way as a failed checkpoint; {@code RunCommandIT} runs them all on the Hadoop catalog,
 * and the README's command with {@code --sink-catalog embedded-rest} runs them here by hand.)
 */
class RestCatalogRunIT {

  /** Each class's default variant (a fault named alone would bring all its variants). */
  private static final List<String> FAULTS =
      List.of(
          "checkpoint-failure",
          "sink-commit-failure",
          "sink-catalog-failure",
          "sink-catalog-failure:unreachable");

  /**
   * Where the embedded catalog and object store the tests share (one per JVM) keep their files: it
   * must outlive every test that uses them, whichever runs first.
   */
  @TempDir static Path sharedCatalog;

  @TempDir Path out;

  @BeforeAll
  static void startTheSharedCatalog() {
    EmbeddedSinkCatalog.acquire(sharedCatalog);
  }

  @Test
  void theDirectSuitePassesOnTheEmbeddedRestCatalogAndObjectStore() throws Exception {
    StringWriter stdout = new StringWriter();
    StringWriter stderr = new StringWriter();
    int exit =
        lab(stdout, stderr)
            .execute(
                "run",
                "--pipeline",
                "direct",
                "--sink-catalog",
                "embedded-rest",
                "--faults",
                FAULTS.stream()
                    .map(fault -> fault.contains(":") ? fault : fault + ":default")
                    .collect(Collectors.joining(",")),
                "--events",
                "600",
                "--seed",
                "11",
                "--out",
                out.toString());

    assertThat(exit)
        .as("exit code; stdout:%n%s%nstderr:%n%s", stdout, stderr)
        .isEqualTo(ExitCode.PASSED.code());
    Map<String, RunRecord> byScenario =
        RunRecordReader.readDirectory(out).stream()
            .collect(Collectors.toMap(r -> r.scenario().name(), Function.identity()));
    List<String> expected = new ArrayList<>(FAULTS);
    expected.add(0, "baseline");
    assertThat(byScenario.keySet()).containsExactlyInAnyOrderElementsOf(expected);
    for (RunRecord run : byScenario.values()) {
      String scenario = run.scenario().name();
      assertThat(run.summary().passed()).as(scenario + ": " + run.summary().reasons()).isTrue();
      assertThat(run.effectiveConfiguration().get("execution.checkpointing.dir"))
          .as(
              scenario
                  + ": checkpoints on the object store, through the fault-injecting file system")
          .startsWith("srlfault-s3://" + EmbeddedSinkCatalog.BUCKET + "/checkpoints/");
      assertThat(run.effectiveConfiguration())
          .as(scenario)
          .containsEntry("sink.iceberg.catalog", "rest")
          .containsEntry(
              "sink.iceberg.catalog-property.io-impl", "org.apache.iceberg.aws.s3.S3FileIO");
      for (FaultRecord fault : run.faults()) {
        assertThat(fault.evidence().status()).as(scenario).isEqualTo(FaultStatus.FIRED);
        assertThat(fault.recovery().recovered()).as(scenario).isTrue();
      }
    }
    // the lost response: the service applied the commit, the job failed on it, and after the
    // restore the checkpoint it carried was committed once
    FaultRecord lost = byScenario.get("sink-catalog-failure").faults().get(0);
    assertThat(lost.evidence().details())
        .containsKeys("lost_response_metadata", "target_checkpoint_id")
        .containsEntry(
            "failure_class", "org.apache.iceberg.exceptions.CommitStateUnknownException");
    assertThat(lost.recovery().details())
        .anySatisfy((key, value) -> assertThat(key).startsWith("target_checkpoint_commits_"))
        .allSatisfy(
            (key, value) -> {
              if (key.startsWith("target_checkpoint_commits_")) {
                assertThat(value).as(key).isEqualTo("1");
              }
            });
    FaultRecord outage = byScenario.get("sink-catalog-failure:unreachable").faults().get(0);
    assertThat(outage.evidence().details()).containsKey("job_failures_since_outage");

    // the tables' files are on the object store, none in a scenario's warehouse directory
    EmbeddedSinkCatalog embedded = EmbeddedSinkCatalog.acquire(sharedCatalog);
    assertThat(out.resolve("baseline").resolve("warehouse")).doesNotExist();
    try (S3FileIO io = new S3FileIO()) {
      io.initialize(embedded.objectStore().fileIoProperties());
      List<String> files = new ArrayList<>();
      io.listPrefix(embedded.objectStore().warehouseLocation())
          .forEach(file -> files.add(file.location()));
      assertThat(files)
          .anySatisfy(file -> assertThat(file).endsWith(".parquet"))
          .anySatisfy(file -> assertThat(file).endsWith(".metadata.json"));
      List<String> checkpoints = new ArrayList<>();
      io.listPrefix("s3://" + EmbeddedSinkCatalog.BUCKET + "/" + EmbeddedSinkCatalog.CHECKPOINTS)
          .forEach(file -> checkpoints.add(file.location()));
      assertThat(checkpoints)
          .as("the checkpoints are on the object store too")
          .anySatisfy(file -> assertThat(file).matches(".*/chk-\\d+/_metadata"));
    }
    try (Stream<Path> local = Files.walk(out)) {
      assertThat(local.map(Path::toString))
          .as("no checkpoint on the local disk")
          .noneMatch(file -> file.matches(".*/chk-\\d+/_metadata"));
    }
  }

  /**
   * The fault-sensitive control of {@code sink-catalog-failure}: the changelog sink that commits
   * its restored state again without asking the table ({@code broken-changelog-at-least-once})
   * passes the baseline, and when the catalog applies its commit and loses the response, the
   * restored checkpoint lands twice. (The faithful job passes the same scenario: by hand, seed 5.)
   */
  @Test
  void aChangelogSinkThatRecommitsARestoredCheckpointFailsWhenTheCatalogLosesACommitResponse()
      throws Exception {
    Path control = out.resolve("control");
    StringWriter stdout = new StringWriter();
    int exit =
        lab(stdout, new StringWriter())
            .execute(
                "run",
                "--pipeline",
                "direct",
                "--sink-catalog",
                "embedded-rest",
                "--faults",
                "sink-catalog-failure:default@table=changelog",
                "--pipeline-option",
                "job.variant=broken-changelog-at-least-once",
                "--events",
                "600",
                "--seed",
                "5",
                "--no-report",
                "--out",
                control.toString());

    assertThat(exit).as("exit code; stdout:%n%s", stdout).isEqualTo(ExitCode.FAILED.code());
    Map<String, RunRecord> runs =
        RunRecordReader.readDirectory(control).stream()
            .collect(Collectors.toMap(r -> r.scenario().name(), Function.identity()));
    assertThat(runs.get("baseline").summary().passed()).isTrue();
    RunRecord lost = runs.get("sink-catalog-failure");
    FaultRecord fault = lost.faults().get(0);
    assertThat(fault.evidence().status()).isEqualTo(FaultStatus.FIRED);
    assertThat(fault.evidence().details().get("lost_response_table")).contains("orders_changelog");
    assertThat(lost.summary().failedChecks())
        .contains("event-id-audit", "changelog-completeness")
        .noneMatch(name -> name.startsWith("baseline:") || name.startsWith("recovery:"));
    assertDuplicatedEventIds(lost);
  }

  /**
   * A team's own catalog and bucket, given as {@code --sink-catalog rest=<URI>} with the client's
   * properties as options and the bucket's keys from the AWS SDK's chain (here its system
   * properties): a catalog and an object store the test runs, which the lab knows nothing of.
   */
  @Test
  void aTeamsOwnRestCatalogAndBucketGivenByUriAndPropertiesTakeTheJobsCommits() throws Exception {
    try (EmbeddedObjectStore store =
            EmbeddedObjectStore.start(out.resolve("team-object-store"), "team-bucket");
        EmbeddedRestCatalog catalog =
            EmbeddedRestCatalog.start(
                out.resolve("team-catalog"), store.warehouseLocation(), store.fileIoProperties())) {
      List<String> arguments =
          new ArrayList<>(
              List.of(
                  "run",
                  "--pipeline",
                  "direct",
                  "--sink-catalog",
                  "rest=" + catalog.uri(),
                  "--faults",
                  "task-exception:default",
                  "--events",
                  "300",
                  "--seed",
                  "11",
                  "--no-report",
                  "--out",
                  out.resolve("runs").toString()));
      store.fileIoProperties().entrySet().stream()
          .filter(property -> !property.getKey().contains("key"))
          .forEach(
              property -> {
                arguments.add("--pipeline-option");
                arguments.add(
                    "sink.catalog.property." + property.getKey() + "=" + property.getValue());
              });
      String keyId = store.fileIoProperties().get("s3.access-key-id");
      String secret = store.fileIoProperties().get("s3.secret-access-key");
      System.setProperty("aws.accessKeyId", keyId);
      System.setProperty("aws.secretAccessKey", secret);
      StringWriter stdout = new StringWriter();
      StringWriter stderr = new StringWriter();
      int exit;
      try {
        exit = lab(stdout, stderr).execute(arguments.toArray(String[]::new));
      } finally {
        System.clearProperty("aws.accessKeyId");
        System.clearProperty("aws.secretAccessKey");
      }

      assertThat(exit)
          .as("exit code; stdout:%n%s%nstderr:%n%s", stdout, stderr)
          .isEqualTo(ExitCode.PASSED.code());
      for (RunRecord run : RunRecordReader.readDirectory(out.resolve("runs"))) {
        assertThat(run.effectiveConfiguration())
            .as(run.scenario().name())
            .containsEntry("sink.iceberg.catalog", "rest")
            .doesNotContainValue(secret);
      }
      assertThat(stdout.toString()).doesNotContain(secret);
      try (S3FileIO io = new S3FileIO()) {
        io.initialize(store.fileIoProperties());
        List<String> files = new ArrayList<>();
        io.listPrefix(store.warehouseLocation()).forEach(file -> files.add(file.location()));
        assertThat(files)
            .as("the tables' files are in the team's bucket")
            .anySatisfy(file -> assertThat(file).endsWith(".parquet"));
      }
    }
  }

  private ReliabilityLab lab(StringWriter stdout, StringWriter stderr) {
    return new ReliabilityLab(
        new PrintWriter(stdout), new PrintWriter(stderr), getClass().getClassLoader());
  }
}
