package io.reliabilitylab.harness.secrets;

import static org.apiguardian.api.API.Status.STABLE;

import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.joran.JoranConfigurator;
import ch.qos.logback.core.joran.spi.JoranException;
import ch.qos.logback.core.status.Status;
import java.net.URL;
import java.util.stream.Collectors;
import org.apiguardian.api.API;
import org.slf4j.ILoggerFactory;
import org.slf4j.LoggerFactory;

/**
 * Configures logback for the lab's command line: concise lines on standard error, third-party
 * engines (Flink, Kafka, Debezium, Iceberg, Hadoop) at WARN, and every message and exception passed
 * through the {@link Redactor}. The configuration is the resource {@value #RESOURCE} next to this
 * class; a library never ships a {@code logback.xml}, so the CLI calls this at startup.
 *
 * <p>{@code LabLogging.configure(options.verbose());}
 */
@API(status = STABLE)
public final class LabLogging {

  /** The configuration resource, relative to this class. */
  public static final String RESOURCE = "logback-lab.xml";

  private LabLogging() {}

  /** Configures the lab's logging at INFO for the lab's own loggers. */
  public static boolean configure() {
    return configure(false);
  }

  /**
   * Replaces the current logback configuration with the lab's.
   *
   * @param verbose log the lab's own loggers at DEBUG instead of INFO
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
    return true;
  }
}
