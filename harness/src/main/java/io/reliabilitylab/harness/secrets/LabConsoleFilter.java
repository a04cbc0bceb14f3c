package io.reliabilitylab.harness.secrets;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.filter.Filter;
import ch.qos.logback.core.spi.FilterReply;

/**
 * What reaches the console: the lab's own warnings and errors, which need the user's attention; the
 * rest (the lab's progress lines at INFO, and Flink, Kafka, Debezium, Iceberg and the database,
 * injected faults' stack traces included) goes to the run's log file. {@code verbose} lets
 * everything through, as before there was a log file.
 */
public final class LabConsoleFilter extends Filter<ILoggingEvent> {

  /** The lab's loggers; its relocated third-party code is not the lab's. */
  static final String LAB = "io.reliabilitylab.";

  private static final String RELOCATED = "io.reliabilitylab.shaded.";

  private boolean verbose;

  public void setVerbose(boolean verbose) {
    this.verbose = verbose;
  }

  @Override
  public FilterReply decide(ILoggingEvent event) {
    if (verbose) {
      return FilterReply.NEUTRAL;
    }
    String logger = event.getLoggerName();
    boolean lab = logger.startsWith(LAB) && !logger.startsWith(RELOCATED);
    return lab && event.getLevel().isGreaterOrEqual(Level.WARN)
        ? FilterReply.NEUTRAL
        : FilterReply.DENY;
  }
}
