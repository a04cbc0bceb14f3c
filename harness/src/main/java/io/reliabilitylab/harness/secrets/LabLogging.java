package io.reliabilitylab.harness.secrets;

import static org.apiguardian.api.API.Status.STABLE;

import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.joran.JoranConfigurator;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.Appender;
import ch.qos.logback.core.FileAppender;
import ch.qos.logback.core.joran.spi.JoranException;
import ch.qos.logback.core.status.Status;
import java.io.IOException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.stream.Collectors;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;
import org.slf4j.ILoggerFactory;
import org.slf4j.LoggerFactory;

/**
 * Configures logback for the lab's command line: on standard error only the lab's own warnings and
 * errors ({@link LabConsoleFilter}; everything with {@code verbose}); everything else — the lab's
 * INFO lines, third-party engines (Flink, Kafka, Debezium, Iceberg, Hadoop) at WARN, the database's
 * output and {@code java.util.logging}, bridged — into the run's log file once {@link #logTo} names
 * it; every message and exception passed through the {@link Redactor}. The configuration is the
 * resource {@value #RESOURCE} next to this class; a library never ships a {@code logback.xml}, so
 * the CLI calls this at startup.
 *
 * <p>{@code LabLogging.configure(verbose); Path log = LabLogging.logTo(outputDirectory);}
 */
@API(status = STABLE)
public final class LabLogging {

  /** The configuration resource, relative to this class. */
  public static final String RESOURCE = "logback-lab.xml";

  // The console appender's name in the resource.
  private static final String CONSOLE_APPENDER = "STDERR";

  private LabLogging() {}

  /** Whether the lab's configuration ({@link #configure}) is the one in force now. */
  public static boolean configured() {
    if (!(LoggerFactory.getILoggerFactory() instanceof LoggerContext context)) {
      return false;
    }
    Appender<ILoggingEvent> console =
        context.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME).getAppender(CONSOLE_APPENDER);
    return console != null
        && console.getCopyOfAttachedFiltersList().stream()
            .anyMatch(filter -> filter instanceof LabConsoleFilter);
  }

  /** Configures the lab's logging at INFO for the lab's own loggers. */
  public static boolean configure() {
    return configure(false);
  }

  /**
   * Replaces the current logback configuration with the lab's.
   *
   * @param verbose everything on the console too (the lab's own loggers at DEBUG)
   * @return {@code false} when SLF4J is not bound to logback (nothing was changed)
   * @throws IllegalStateException when the configuration cannot be applied
   */
  public static boolean configure(boolean verbose) {
    ILoggerFactory factory = LoggerFactory.getILoggerFactory();
    if (!(factory instanceof LoggerContext context)) {
      return false;
    }
    URL configuration = LabLogging.class.getResource(RESOURCE);
    if (configuration == null) {
      throw new IllegalStateException(
          "The lab's logging configuration " + RESOURCE + " is missing from the harness jar");
    }
    context.reset();
    context.putProperty("lab.log.level", verbose ? "DEBUG" : "INFO");
    context.putProperty("lab.console.verbose", Boolean.toString(verbose));
    JoranConfigurator configurator = new JoranConfigurator();
    configurator.setContext(context);
    try {
      configurator.doConfigure(configuration);
    } catch (JoranException e) {
      throw new IllegalStateException(
          "Could not apply " + configuration + ": " + e.getMessage(), e);
    }
    String errors =
        context.getStatusManager().getCopyOfStatusList().stream()
            .filter(status -> status.getLevel() >= Status.ERROR)
            .map(Status::getMessage)
            .collect(Collectors.joining("; "));
    if (!errors.isEmpty()) {
      throw new IllegalStateException("Could not apply " + configuration + ": " + errors);
    }
    // Third-party java.util.logging (the binlog client, Debezium's JUL lines) into the same places.
    JulToSlf4j.install();
    return true;
  }

  /**
   * Adds a log file in {@code directory} that receives every line (lab and third party) from now
   * on, and returns its path; a no-op returning {@code null} when SLF4J is not bound to logback.
   * One file per command invocation: {@code lab-<UTC start>.log}.
   */
  public static @Nullable Path logTo(Path directory) throws IOException {
    if (!(LoggerFactory.getILoggerFactory() instanceof LoggerContext context)) {
      return null;
    }
    Files.createDirectories(directory);
    String started =
        DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'")
            .withZone(ZoneOffset.UTC)
            .format(Instant.now());
    Path file = directory.resolve("lab-" + started + ".log").toAbsolutePath();
    PatternLayoutEncoder encoder = new PatternLayoutEncoder();
    encoder.setContext(context);
    encoder.setPattern(FILE_PATTERN);
    encoder.setCharset(StandardCharsets.UTF_8);
    encoder.start();
    FileAppender<ILoggingEvent> appender = new FileAppender<>();
    appender.setContext(context);
    appender.setName("RUN_LOG");
    appender.setFile(file.toString());
    appender.setAppend(true);
    appender.setEncoder(encoder);
    appender.start();
    ch.qos.logback.classic.Logger root = context.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
    root.detachAppender("RUN_LOG");
    root.addAppender(appender);
    return file;
  }

  // The console's pattern with (the start of) the thread; %msg and %ex redact.
  private static final String FILE_PATTERN =
      "%d{HH:mm:ss.SSS} %-5level [%.-32thread] %logger{36} - %msg%n%ex";
}
