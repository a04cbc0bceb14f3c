package io.reliabilitylab.pipeline.broker;

import static org.assertj.core.api.Assertions.assertThat;

import io.reliabilitylab.harness.cli.ReliabilityLab;
import io.reliabilitylab.record.ExitCode;
import io.reliabilitylab.record.RunRecord;
import io.reliabilitylab.record.RunRecordReader;
import io.reliabilitylab.spi.check.CheckResult;
import io.reliabilitylab.spi.check.Verdict;
import io.reliabilitylab.spi.fault.FaultEvidence;
import io.reliabilitylab.spi.fault.FaultStatus;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Negative controls on the real broker pipeline. The linkage check's: a Kafka source that never
 * commits its offsets leaves them unconsumed as far as the group shows, while the tables are
 * complete; only the linkage check may fail, naming the lag. The duplicate-redelivery class's: a
 * replay deduplication that drops only repeats of a key's last position passes its baseline, and
 * under a redelivery lets older changes through, which the upsert sink applies over newer ones. The
 * poison-message class's: a job that drops what it cannot decode (no dead letter) passes its
 * baseline and, under a poison, loses the change the poison carried. The broker-restart class's: a
 * connector that logs and drops what the broker does not acknowledge passes its baseline and loses
 * the changes it read while the broker restarted.
 */
class BrokerNegativeControlIT {

  @TempDir Path out;

  @Test
  void offsetsLeftUnconsumedFailTheLinkageCheckAndNothingElse() throws Exception {
    StringWriter stdout = new StringWriter();
    StringWriter stderr = new StringWriter();
    int exit =
        new ReliabilityLab(
                new PrintWriter(stdout), new PrintWriter(stderr), getClass().getClassLoader())
            .execute(
                "run",
                "--pipeline",
                "broker",
                "--faults",
                "none",
                "--events",
                "300",
                "--seed",
                "5",
                "--pipeline-option",
                BrokerPipelineProvider.COMMIT_OFFSETS + "=false",
                "--out",
                out.toString());

    assertThat(exit)
        .as("exit code; stdout:%n%s%nstderr:%n%s", stdout, stderr)
        .isEqualTo(ExitCode.FAILED.code());
    List<RunRecord> records = RunRecordReader.readDirectory(out);
    assertThat(records).hasSize(1);
    RunRecord run = records.get(0);
    assertThat(run.effectiveConfiguration()).containsKey("kafka.source");
    assertThat(run.effectiveConfiguration().get("kafka.source")).contains("NOT committed");
    assertThat(run.checks())
        .filteredOn(check -> check.verdict() != Verdict.PASSED)
        .extracting(CheckResult::check)
        .containsExactly("offset-checkpoint-snapshot-linkage");
    CheckResult linkage =
        run.checks().stream()
            .filter(check -> check.check().equals("offset-checkpoint-snapshot-linkage"))
            .findFirst()
            .orElseThrow();
    assertThat(linkage.evidence().count("total_final_lag")).isPositive();
    assertThat(run.summary().snapshotDiffCount()).isZero();
  }

  @Test
  void aDedupComparingPositionsByEqualityFailsUnderARedeliveryOnly() throws Exception {
    Map<String, RunRecord> runs =
        failingOnlyUnderItsFault("duplicate-redelivery", "broken-dedup-last-only");
    RunRecord redelivered = runs.get("duplicate-redelivery");
    assertThat(redelivered.effectiveConfiguration().get("dedup")).contains("BROKEN");
    FaultEvidence evidence = redelivered.faults().get(0).evidence();
    assertThat(evidence.status())
        .as("the redelivery proven (%s; details %s)", evidence.reason(), evidence.details())
        .isEqualTo(FaultStatus.FIRED);
    Map<String, String> fault = evidence.details();
    assertThat(Long.parseLong(fault.get("seen_replays")))
        .as("the redelivery reached the job")
        .isGreaterThanOrEqualTo(Long.parseLong(fault.get("republished")));
    assertThat(Long.parseLong(fault.get("dropped_replays")))
        .as("and the dedup let some through")
        .isLessThan(Long.parseLong(fault.get("seen_replays")));
    assertThat(redelivered.summary().failedChecks())
        .contains("snapshot-diff", "event-id-audit")
        .noneMatch(name -> name.startsWith("baseline:"));
    CheckResult diff =
        redelivered.checks().stream()
            .filter(check -> check.check().equals("snapshot-diff"))
            .findFirst()
            .orElseThrow();
    assertThat(diff.evidence().samples())
        .as("keys whose newer image an older replay overwrote")
        .isNotEmpty()
        .allSatisfy(sample -> assertThat(sample.subject()).startsWith("order_id="));
  }

  @Test
  void aJobDroppingUndecodableRecordsLosesAPoisonsChangeAndOnlyUnderAPoison() throws Exception {
    Map<String, RunRecord> runs =
        failingOnlyUnderItsFault("poison-message:default", "broken-undecodable-skipped");
    RunRecord poisoned = runs.get("poison-message");
    assertThat(poisoned.effectiveConfiguration().get("kafka.dlq-sink")).contains("BROKEN");
    Map<String, String> fault = poisoned.faults().get(0).evidence().details();
    assertThat(fault)
        .as("the fault fired: the job read past the poison without a dead letter")
        .containsEntry("dlq_record", "none")
        .containsKey("read_past_without_dead_letter");
    assertThat(poisoned.summary().failedChecks())
        .contains("changelog-completeness", "event-id-audit")
        .noneMatch(name -> name.startsWith("recovery:"));
    CheckResult completeness =
        poisoned.checks().stream()
            .filter(check -> check.check().equals("changelog-completeness"))
            .findFirst()
            .orElseThrow();
    assertThat(completeness.evidence().samples())
        .as("the change the poison carried, by event id and key")
        .singleElement()
        .satisfies(
            sample -> {
              assertThat(sample.subject()).startsWith("event_id=");
              assertThat(sample.note()).contains(fault.get("key"));
            });
  }

  @Test
  void aJobFailingOnUndecodableRecordsNeverRecoversFromAPoison() throws Exception {
    Map<String, RunRecord> runs =
        failingOnlyUnderItsFault(
            "poison-message:default", "broken-undecodable-fails", "--catch-up-timeout", "10s");
    RunRecord poisoned = runs.get("poison-message");
    assertThat(poisoned.effectiveConfiguration().get("kafka.dlq-sink")).contains("BROKEN");
    assertThat(poisoned.faults().get(0).evidence().status().name())
        .as("the poison reached the broker: the fault fired, not unproven")
        .isEqualTo("FIRED");
    assertThat(poisoned.faults().get(0).evidence().details())
        .containsEntry("dlq_record", "none")
        .hasEntrySatisfying(
            "job_failed_on_poison",
            failure -> assertThat(failure).contains("restarted").contains("Undecodable record"));
    assertThat(poisoned.summary().failedChecks())
        .as("the job never gets past the poison: it does not recover, nor catch up")
        .anyMatch(name -> name.startsWith("recovery:") && name.endsWith("poison-message"))
        .contains("catch-up");
  }

  @Test
  void aConnectorDroppingUnacknowledgedRecordsLosesChangesUnderABrokerRestartOnly()
      throws Exception {
    Map<String, RunRecord> runs =
        failingOnlyUnderItsFault("broker-restart:default", "broken-publisher-drops-unacknowledged");
    RunRecord restarted = runs.get("broker-restart");
    assertThat(restarted.effectiveConfiguration().get("connector.publisher.unacknowledged"))
        .contains("BROKEN");
    assertThat(restarted.summary().failedChecks())
        .contains("changelog-completeness", "event-id-audit")
        .noneMatch(name -> name.startsWith("recovery:"));
    CheckResult completeness =
        restarted.checks().stream()
            .filter(check -> check.check().equals("changelog-completeness"))
            .findFirst()
            .orElseThrow();
    assertThat(completeness.evidence().samples())
        .as("the changes read while the broker was down, by event id")
        .isNotEmpty()
        .allSatisfy(sample -> assertThat(sample.subject()).startsWith("event_id="));
  }

  /**
   * A connector that resends what it stopped waiting for, without idempotence, into a job that
   * keeps no deduplication: a link that only slows (latency), narrows (bandwidth) or holds (a
   * freeze) the connector's requests — dropping nothing — lands changes twice. Each impaired for 3
   * s, past the connector's 1.5 s request timeout: a second of latency each way, 256 bytes a
   * second.
   */
  @Test
  void aConnectorResendingWithoutIdempotenceDuplicatesUnderASlowThrottledOrFrozenLink()
      throws Exception {
    List<String> faults =
        List.of("network-latency:broker", "network-bandwidth:broker", "network-partition:broker");
    List<String> impaired =
        List.of(
            "network-latency:broker@latency-ms=1000@duration-ms=3000",
            "network-bandwidth:broker@bytes-per-second=256@duration-ms=3000",
            "network-partition:broker@duration-ms=3000");
    Map<String, RunRecord> runs =
        failingOnlyUnderItsFault(String.join(",", impaired), "broken-publisher-resends");
    for (String fault : faults) {
      RunRecord run = runs.get(fault);
      assertThat(run).as("the record of %s among %s", fault, runs.keySet()).isNotNull();
      assertThat(run.effectiveConfiguration().get("connector.publisher.unacknowledged"))
          .contains("BROKEN");
      assertThat(run.summary().failedChecks())
          .as("%s", fault)
          .contains("event-id-audit")
          .noneMatch(name -> name.startsWith("recovery:"));
      CheckResult audit =
          run.checks().stream()
              .filter(check -> check.check().equals("event-id-audit"))
              .findFirst()
              .orElseThrow();
      assertThat(audit.evidence().count("duplicate_occurrence_count")).as("%s", fault).isPositive();
      assertThat(audit.evidence().samples())
          .as("the changes that landed twice under %s, by event id", fault)
          .filteredOn(sample -> sample.kind().equals("duplicate"))
          .isNotEmpty()
          .allSatisfy(sample -> assertThat(sample.subject()).startsWith("event_id="));
    }
  }

  /**
   * Runs the broker pipeline's variant under the fault (600 events, seed 5): the suite fails, its
   * baseline passes. The records by scenario.
   */
  private Map<String, RunRecord> failingOnlyUnderItsFault(
      String faults, String variant, String... more) throws Exception {
    StringWriter stdout = new StringWriter();
    List<String> command =
        new ArrayList<>(
            List.of(
                "run",
                "--pipeline",
                "broker",
                "--faults",
                faults,
                "--events",
                "600",
                "--seed",
                "5",
                "--pipeline-option",
                "job.variant=" + variant,
                "--no-report",
                "--out",
                out.toString()));
    command.addAll(List.of(more));
    int exit =
        new ReliabilityLab(
                new PrintWriter(stdout),
                new PrintWriter(new StringWriter()),
                getClass().getClassLoader())
            .execute(command.toArray(String[]::new));

    assertThat(exit).as("exit code; stdout:%n%s", stdout).isEqualTo(ExitCode.FAILED.code());
    Map<String, RunRecord> runs =
        RunRecordReader.readDirectory(out).stream()
            .collect(Collectors.toMap(r -> r.scenario().name(), Function.identity()));
    assertThat(runs.get("baseline").summary().verdict()).isEqualTo(Verdict.PASSED);
    return runs;
  }
}
