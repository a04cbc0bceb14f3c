package io.reliabilitylab.pipeline.broker;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.core.OutputStreamAppender;
import io.reliabilitylab.harness.cli.ReliabilityLab;
import io.reliabilitylab.harness.secrets.LabConsoleFilter;
import io.reliabilitylab.record.ExitCode;
import io.reliabilitylab.record.FaultRecord;
import io.reliabilitylab.record.RunRecord;
import io.reliabilitylab.record.RunRecordReader;
import io.reliabilitylab.record.SuiteSummary;
import io.reliabilitylab.spi.check.CheckResult;
import io.reliabilitylab.spi.check.DlqRecord;
import io.reliabilitylab.spi.check.Verdict;
import io.reliabilitylab.spi.fault.FaultStatus;
import java.io.ByteArrayOutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * The broker pipeline's suite on embedded defaults (MariaDB, an in-process KRaft broker, a Debezium
 * engine, a Flink MiniCluster, Iceberg on the local disk): a baseline, the three broker faults, a
 * crash of the source server, the source link frozen and slowed, the broker link frozen, the
 * unrepaired poison control, and the default variant of each of the five Flink failure classes,
 * each scenario reconciled. The poison's payload appears nowhere but in the dead-letter topic: not
 * in a run record, not on the console, not in a log line, neither as text nor as base64.
 */
class BrokerRunCommandIT {

  private static final List<String> FAULTS =
      List.of(
          "poison-message",
          "broker-restart:default",
          "duplicate-redelivery",
          "task-exception:default",
          "task-failure:default",
          "coordinator-failure:default",
          "checkpoint-failure:default",
          "savepoint-restore:default",
          "sink-commit-failure:default",
          "source-crash",
          // the source link (the Debezium engine's binlog stream) frozen, then slowed
          "network-partition:default",
          "network-latency:default",
          "network-partition:broker");

  private static final Pattern ORIGINAL_VALUE =
      Pattern.compile("\"original_value_base64\":\"([A-Za-z0-9+/=]+)\"");

  @TempDir Path out;

  @Test
  void theBrokerSuiteRecoversFromEveryFaultAndKeepsThePoisonOutOfRecordsAndLogs() throws Exception {
    ByteArrayOutputStream logs = new ByteArrayOutputStream();
    OutputStreamAppender<ch.qos.logback.classic.spi.ILoggingEvent> capture = capture(logs, null);
    // What the lab's console shows, through the console's own filter.
    ByteArrayOutputStream console = new ByteArrayOutputStream();
    OutputStreamAppender<ch.qos.logback.classic.spi.ILoggingEvent> consoleCapture =
        capture(console, new LabConsoleFilter());
    StringWriter stdout = new StringWriter();
    StringWriter stderr = new StringWriter();
    int exit;
    try {
      exit =
          new ReliabilityLab(
                  new PrintWriter(stdout), new PrintWriter(stderr), getClass().getClassLoader())
              .execute(
                  "run",
                  "--pipeline",
                  "broker",
                  "--faults",
                  String.join(",", FAULTS),
                  "--events",
                  "600",
                  "--seed",
                  "11",
                  "--out",
                  out.toString());
    } finally {
      // A control: a lab warning does reach the console's capture, so an empty one means none.
      LoggerFactory.getLogger(BrokerRunCommandIT.class).warn("control warning");
      for (OutputStreamAppender<ch.qos.logback.classic.spi.ILoggingEvent> appender :
          List.of(capture, consoleCapture)) {
        appender.stop();
        ((Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME))
            .detachAppender(appender);
      }
    }

    assertThat(exit)
        .as("exit code; stdout:%n%s%nstderr:%n%s", stdout, stderr)
        .isEqualTo(ExitCode.PASSED.code());
    Map<String, RunRecord> byScenario =
        RunRecordReader.readDirectory(out).stream()
            .collect(Collectors.toMap(r -> r.scenario().name(), Function.identity()));
    List<String> expected = new ArrayList<>(List.of("baseline", "poison-message:unrepaired"));
    FAULTS.forEach(fault -> expected.add(fault.contains(":") ? fault : fault + ":default"));
    assertThat(byScenario.keySet())
        .containsExactlyInAnyOrderElementsOf(
            expected.stream().map(BrokerRunCommandIT::scenarioName).toList());
    SuiteSummary suite = suite();
    assertThat(suite.exitCode()).isEqualTo(ExitCode.PASSED);
    // A passing suite puts no lab warning on the console (the poison's publication and quarantine
    // are expected: they go to the log file at INFO).
    assertThat(console.toString(StandardCharsets.UTF_8))
        .as("the console's log lines")
        .isEqualTo(BrokerRunCommandIT.class.getName() + " control warning \n");
    assertThat(logs.toString(StandardCharsets.UTF_8))
        .as("the log file's lines")
        .contains("org.apache.flink", "Disarmed fault");
    assertThat(suite.runs())
        .filteredOn(entry -> entry.scenario().equals("poison-message:unrepaired"))
        .singleElement()
        .extracting(SuiteSummary.Entry::outcome)
        .isEqualTo(SuiteSummary.Entry.KNOWN_HAZARD_DETECTED);

    // the broker link (producer and consumer) frozen behind the lab's proxy; the source server
    // killed and restarted, the connector reconnected to it
    Map<String, String> brokerLink =
        byScenario.get("network-partition:broker").faults().get(0).evidence().details();
    assertThat(brokerLink).containsEntry("link", "broker");
    assertThat(Long.parseLong(brokerLink.get("proxy_at_heal_bytes_held"))).isPositive();
    assertThat(byScenario.get("source-crash").faults().get(0).recovery().details())
        .containsKey("reconnected_at");

    RunRecord baseline = byScenario.get("baseline");
    assertThat(baseline.summary().passed()).as("%s", baseline.summary().reasons()).isTrue();
    assertThat(baseline.checks())
        .extracting(CheckResult::check)
        .contains("offset-checkpoint-snapshot-linkage", "dlq-integrity", "snapshot-diff");
    assertThat(baseline.stackVersions())
        .containsKeys("flink", "iceberg", "debezium", "kafka_clients", "flink_connector_kafka");
    assertThat(baseline.linkage().finalLinkage()).isNotNull();
    assertThat(baseline.linkage().finalLinkage().offsets())
        .isNotEmpty()
        .allSatisfy(offset -> assertThat(offset.lag()).isZero());

    for (RunRecord run : byScenario.values()) {
      String scenario = run.scenario().name();
      for (FaultRecord fault : run.faults()) {
        assertThat(fault.evidence().status()).as(scenario).isEqualTo(FaultStatus.FIRED);
        assertThat(fault.recovery()).as(scenario).isNotNull();
        assertThat(fault.recovery().recovered()).as(scenario).isTrue();
      }
      if (run.scenario().knownHazard() == null) {
        assertThat(run.summary().passed()).as(scenario + ": " + run.summary().reasons()).isTrue();
        assertThat(run.summary().snapshotDiffCount()).as(scenario).isZero();
        assertThat(run.linkage().finalLinkage()).as(scenario).isNotNull();
        if (!run.faults().isEmpty()) {
          // a fault scenario first reconciles a baseline, and observes the linkage there
          assertThat(run.linkage().baseline()).as(scenario).isNotNull();
        }
      }
    }

    RunRecord poisoned = byScenario.get("poison-message");
    assertThat(poisoned.dlq()).as("exactly one dead letter").hasSize(1);
    DlqRecord deadLetter = poisoned.dlq().get(0);
    assertThat(deadLetter.errorType()).isEqualTo("invalid-utf8");
    assertThat(deadLetter.originalBytesPreserved()).isTrue();
    assertThat(poisoned.quarantine()).isNotNull();
    assertThat(poisoned.quarantine().repairReplayed()).isTrue();
    assertThat(poisoned.linkage().repair()).isNotNull();
    Map<String, String> poisonDetails = poisoned.faults().get(0).evidence().details();
    assertThat(poisonDetails)
        .containsEntry("connector_status_during_injection", "STOPPED")
        .containsEntry("connector_status_after_resume", "RUNNING")
        .containsEntry("repair_converged_before_connector_resume", "true")
        .containsEntry("value_sha256", deadLetter.originalValueSha256());

    RunRecord unrepaired = byScenario.get("poison-message:unrepaired");
    assertThat(unrepaired.dlq()).hasSize(1);
    assertThat(unrepaired.checks())
        .filteredOn(check -> check.check().equals("changelog-completeness"))
        .extracting(CheckResult::verdict)
        .containsExactly(Verdict.FAILED);

    Map<String, String> redelivery =
        byScenario.get("duplicate-redelivery").faults().get(0).evidence().details();
    assertThat(Long.parseLong(redelivery.get("dropped_replays")))
        .isGreaterThanOrEqualTo(Long.parseLong(redelivery.get("republished")))
        .isPositive();

    // The poison's bytes are kept in the dead-letter topic, and only there.
    byte[] poison = poisonBytesFromTheDeadLetterTopic(deadLetter);
    assertThat(sha256(poison)).isEqualTo(deadLetter.originalValueSha256());
    assertThat(poison.length).isEqualTo((int) deadLetter.originalValueLength());
    String plaintext = new String(poison, 2, poison.length - 2, StandardCharsets.UTF_8);
    String base64 = Base64.getEncoder().encodeToString(poison);
    String innerBase64 =
        Base64.getEncoder().encodeToString(plaintext.getBytes(StandardCharsets.UTF_8));
    List<String> outputs = new ArrayList<>();
    try (Stream<Path> files = Files.walk(out)) {
      for (Path file : files.filter(p -> p.toString().endsWith(".json")).toList()) {
        outputs.add(Files.readString(file));
      }
    }
    outputs.add(stdout.toString());
    outputs.add(stderr.toString());
    outputs.add(logs.toString(StandardCharsets.UTF_8));
    assertThat(outputs)
        .allSatisfy(
            text ->
                assertThat(text)
                    .doesNotContain(plaintext)
                    .doesNotContain(base64)
                    .doesNotContain(innerBase64));
  }

  /**
   * The dead-letter topic's segment on disk holds the quarantined record's original bytes. The
   * suite's scenarios share one broker, whose log directory is in the run directory of the scenario
   * that started it, so the partition's directory is looked for under the whole output directory.
   */
  private byte[] poisonBytesFromTheDeadLetterTopic(DlqRecord deadLetter) throws Exception {
    String partition = deadLetter.topic() + "-" + deadLetter.partition();
    try (Stream<Path> files = Files.walk(out)) {
      for (Path segment :
          files
              .filter(p -> p.getParent().getFileName().toString().equals(partition))
              .filter(p -> p.toString().endsWith(".log"))
              .toList()) {
        Matcher matcher =
            ORIGINAL_VALUE.matcher(new String(Files.readAllBytes(segment), StandardCharsets.UTF_8));
        if (matcher.find()) {
          return Base64.getDecoder().decode(matcher.group(1));
        }
      }
    }
    throw new AssertionError(
        "no dead letter with an original value in " + partition + " under " + out);
  }

  private static OutputStreamAppender<ch.qos.logback.classic.spi.ILoggingEvent> capture(
      ByteArrayOutputStream sink, @Nullable LabConsoleFilter filter) {
    LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
    PatternLayoutEncoder encoder = new PatternLayoutEncoder();
    encoder.setContext(context);
    encoder.setPattern("%logger %msg %ex%n");
    encoder.start();
    OutputStreamAppender<ch.qos.logback.classic.spi.ILoggingEvent> appender =
        new OutputStreamAppender<>();
    appender.setContext(context);
    appender.setEncoder(encoder);
    appender.setOutputStream(sink);
    if (filter != null) {
      filter.start();
      appender.addFilter(filter);
    }
    appender.start();
    ((Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME)).addAppender(appender);
    return appender;
  }

  private SuiteSummary suite() throws Exception {
    try (Stream<Path> files = Files.list(out)) {
      Path file =
          files
              .filter(p -> p.getFileName().toString().startsWith("suite-"))
              .findFirst()
              .orElseThrow();
      return RunRecordReader.readSuite(file);
    }
  }

  private static String scenarioName(String selection) {
    return selection.endsWith(":default")
        ? selection.substring(0, selection.length() - ":default".length())
        : selection;
  }

  private static String sha256(byte[] bytes) throws Exception {
    return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
  }
}
