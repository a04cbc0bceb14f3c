package io.reliabilitylab.harness.cli;

import java.time.Duration;
import java.util.Locale;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * Reads durations as people write them: {@code 500ms}, {@code 1s}, {@code 2m}, or ISO {@code PT1S}.
 */
final class DurationConverter implements ITypeConverter<Duration> {

  @Override
  public Duration convert(String text) {
    String value = text.trim().toLowerCase(Locale.ROOT);
    try {
      if (value.startsWith("pt")) {
        return Duration.parse(value.toUpperCase(Locale.ROOT));
      }
      if (value.endsWith("ms")) {
        return Duration.ofMillis(Long.parseLong(value.substring(0, value.length() - 2)));
      }
      if (value.endsWith("s")) {
        return Duration.ofSeconds(Long.parseLong(value.substring(0, value.length() - 1)));
      }
      if (value.endsWith("m")) {
        return Duration.ofMinutes(Long.parseLong(value.substring(0, value.length() - 1)));
      }
    } catch (RuntimeException e) {
      // fall through to the message below
    }
    throw new TypeConversionException(
        "'" + text + "' is not a duration; write e.g. 500ms, 1s, 2m or PT1S");
  }
}
