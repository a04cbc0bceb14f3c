package io.reliabilitylab.harness.secrets;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.util.ContextInitializer;
import io.reliabilitylab.spi.secret.Redactor;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Log lines produced through the lab's logback configuration never carry a secret. */
class LabLoggingTest {

  private static final PrintStream ORIGINAL_ERR = System.err;

  private final ByteArrayOutputStream captured = new ByteArrayOutputStream();

  // Verbose, so that every line reaches the console these tests read; the quiet default has a test
  // of its own.
  @BeforeAll
  static void configure() {
    assertThat(LabLogging.configure(true)).isTrue();
  }

  @AfterAll
  static void restoreDefaultLogging() throws Exception {
    LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
    context.reset();
    new ContextInitializer(context).autoConfig();
  }

  @BeforeEach
  void captureStandardError() {
    System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
  }

  @AfterEach
  void restoreStandardError() {
    System.setErr(ORIGINAL_ERR);
    Redactor.clearRegistered();
  }

  private String output() {
    return captured.toString(StandardCharsets.UTF_8);
  }

  @Test
  void theLabsOwnMessagesAreRedacted() {
    Logger log = LoggerFactory.getLogger("io.reliabilitylab.harness.Lifecycle");

    log.info("connecting to {}", "jdbc:mysql://lab:urlSecret1@db:3306/lab?password=querySecret2");
    log.info("options: source.password={} seed=7", "propSecret3");
    log.info("command line: reliability-lab run --source-password cliSecret4 --seed 7");

    assertThat(output())
        .doesNotContain("urlSecret1", "querySecret2", "propSecret3", "cliSecret4")
        .contains("jdbc:mysql://lab:***@db:3306/lab?password=***")
        .contains("source.password=*** seed=7")
        .contains("--source-password *** --seed 7")
        .contains("INFO");
  }

  @Test
  void aThirdPartyLineThatEchoesARegisteredSecretIsRedacted() {
    Redactor.register("Opaque-Secret-42");
    Logger kafka = LoggerFactory.getLogger("org.apache.kafka.clients.NetworkClient");

    kafka.warn("authentication with Opaque-Secret-42 failed for broker 1");
    kafka.error("config dump: sasl.jaas.config=PlainLoginModule required password=\"jaasSecret\";");

    assertThat(output())
        .doesNotContain("Opaque-Secret-42", "jaasSecret")
        .contains("authentication with *** failed for broker 1");
  }

  @Test
  void exceptionMessagesAndCausesAreRedacted() {
    Logger debezium = LoggerFactory.getLogger("io.debezium.connector.mysql.MySqlConnectorTask");
    Exception failure =
        new IllegalStateException(
            "connector failed",
            new SQLException("Access denied for jdbc:mysql://lab:causeSecret@db/x"));

    debezium.error("task failed with password=msgSecret", failure);

    assertThat(output())
        .doesNotContain("causeSecret", "msgSecret")
        .contains("jdbc:mysql://lab:***@db/x")
        .contains("java.sql.SQLException");
  }

  @Test
  void noisyThirdPartyLoggersOnlyShowWarnings() {
    LoggerFactory.getLogger("org.apache.flink.runtime.jobmaster.JobMaster").info("flink chatter");
    LoggerFactory.getLogger("org.apache.iceberg.BaseMetastoreCatalog").info("iceberg chatter");
    LoggerFactory.getLogger("org.apache.hadoop.fs.FileSystem").info("hadoop chatter");
    LoggerFactory.getLogger("org.apache.flink.runtime.jobmaster.JobMaster").warn("flink warning");

    assertThat(output()).doesNotContain("chatter").contains("flink warning");
  }

  @Test
  void verboseShowsTheLabsDebugLines() {
    LoggerFactory.getLogger("io.reliabilitylab.harness.Lifecycle").debug("lab detail");
    LoggerFactory.getLogger("org.apache.kafka.clients.NetworkClient").debug("kafka detail");

    assertThat(output()).contains("lab detail").doesNotContain("kafka detail");
  }

  @Test
  void byDefaultTheConsoleShowsTheLabsWarningsOnlyAndTheLogFileEverything(@TempDir Path directory)
      throws Exception {
    Path file;
    try {
      LabLogging.configure();
      assertThat(LabLogging.configured()).isTrue();
      file = LabLogging.logTo(directory);
      Redactor.register("Opaque-Secret-42");
      Logger lab = LoggerFactory.getLogger("io.reliabilitylab.runner.phase.Lab");
      lab.info("scenario started");
      lab.warn("lab warning");
      LoggerFactory.getLogger("org.apache.flink.runtime.taskmanager.Task")
          .warn("switched to FAILED", new IllegalStateException("injected fault"));
      LoggerFactory.getLogger("io.reliabilitylab.shaded.cdc.io.debezium.MySqlConnection")
          .warn("serverTimezone is obsolete");
      java.util.logging.Logger.getLogger("com.github.shyiko.mysql.binlog.BinaryLogClient")
          .info("Connected with Opaque-Secret-42");
    } finally {
      LabLogging.configure(true);
    }

    assertThat(output())
        .contains("lab warning")
        .doesNotContain("scenario started", "injected fault", "serverTimezone", "Connected");
    assertThat(file).isRegularFile().hasParent(directory.toAbsolutePath());
    assertThat(Files.readString(file))
        .contains("scenario started", "lab warning", "injected fault", "serverTimezone")
        .contains("Connected with ***")
        .doesNotContain("Opaque-Secret-42");
  }
}
