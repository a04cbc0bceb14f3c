package io.reliabilitylab.harness.secrets;

import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogManager;
import java.util.logging.LogRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Routes {@code java.util.logging} (the binlog client, some of Debezium) to SLF4J, so that its
 * lines are redacted and land in the run's log file like every other, not raw on standard error.
 */
final class JulToSlf4j extends Handler {

  private JulToSlf4j() {}

  /** Replaces the JUL root logger's handlers (the default console handler) with this one. */
  static void install() {
    java.util.logging.Logger root = LogManager.getLogManager().getLogger("");
    for (Handler handler : root.getHandlers()) {
      root.removeHandler(handler);
    }
    root.addHandler(new JulToSlf4j());
    root.setLevel(Level.INFO);
  }

  @Override
  public void publish(LogRecord record) {
    if (record == null) {
      return;
    }
    Logger logger =
        LoggerFactory.getLogger(record.getLoggerName() == null ? "jul" : record.getLoggerName());
    String message = message(record);
    int level = record.getLevel().intValue();
    if (level >= Level.SEVERE.intValue()) {
      logger.error(message, record.getThrown());
    } else if (level >= Level.WARNING.intValue()) {
      logger.warn(message, record.getThrown());
    } else if (level >= Level.INFO.intValue()) {
      logger.info(message, record.getThrown());
    } else {
      logger.debug(message, record.getThrown());
    }
  }

  private static String message(LogRecord record) {
    String message = record.getMessage();
    if (message == null) {
      return "";
    }
    Object[] parameters = record.getParameters();
    if (parameters == null || parameters.length == 0) {
      return message;
    }
    try {
      return java.text.MessageFormat.format(message, parameters);
    } catch (IllegalArgumentException e) {
      return message;
    }
  }

  @Override
  public void flush() {}

  @Override
  public void close() {}
}
