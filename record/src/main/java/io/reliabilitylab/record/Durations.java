package io.reliabilitylab.record;

import java.time.Duration;
import java.time.temporal.ChronoUnit;
import org.jspecify.annotations.Nullable;

/** Records keep durations in whole milliseconds, the unit they are written in. */
final class Durations {

  private Durations() {}

  static @Nullable Duration millis(@Nullable Duration duration) {
    return duration == null ? null : duration.truncatedTo(ChronoUnit.MILLIS);
  }

  static Duration requireMillis(Duration duration, String what) {
    if (duration.isNegative()) {
      throw new IllegalArgumentException(what + " cannot be negative: " + duration);
    }
    return duration.truncatedTo(ChronoUnit.MILLIS);
  }
}
