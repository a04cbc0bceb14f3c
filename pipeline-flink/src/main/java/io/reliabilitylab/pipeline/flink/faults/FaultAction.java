package io.reliabilitylab.pipeline.flink.faults;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.time.Duration;
import java.util.Arrays;
import java.util.Locale;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.apiguardian.api.API;

/** What an armed fault point does when the job reaches its position. */
@API(status = EXPERIMENTAL)
public enum FaultAction {
  /** Throw an exception that carries the fault id. */
  THROW("throw"),
  /** Block until the fault is disarmed (or its stall limit passes), then go on unchanged. */
  STALL("stall"),
  /** Throw from {@code notifyCheckpointComplete}, after the checkpoint completed. */
  THROW_ON_CHECKPOINT_COMPLETE("throw-on-checkpoint-complete"),
  /** Fail an Iceberg commit before the metadata swap: nothing is committed. */
  FAIL_COMMIT_BEFORE_SWAP("fail-commit-before-swap"),
  /** Let an Iceberg commit swap the metadata, then throw: the commit did happen. */
  FAIL_COMMIT_AFTER_SWAP("fail-commit-after-swap"),
  /** Let an Iceberg commit swap the metadata, then throw {@code CommitStateUnknownException}. */
  COMMIT_STATE_UNKNOWN("commit-state-unknown"),
  /**
   * Delay every element by a fixed time from the position on, until disarmed: backpressure, not a
   * failure (nothing is thrown). The text form carries the delay per element: {@code throttle-2ms}
   * or {@code throttle-500us}.
   */
  THROTTLE("throttle");

  /** The longest delay per element a throttle accepts: a slowed job, not a stopped one. */
  public static final Duration LONGEST_THROTTLE = Duration.ofSeconds(1);

  private static final Pattern THROTTLE_TEXT = Pattern.compile("throttle-([0-9]{1,9})(ms|us)");

  private final String text;

  FaultAction(String text) {
    this.text = text;
  }

  /** The text form, e.g. {@code fail-commit-after-swap}, which {@link #parse} reads back. */
  public String text() {
    return text;
  }

  /**
   * Reads the text form (or the constant's name); a bad input's message lists the actions. A
   * throttle's text carries its delay ({@code throttle-2ms}), which {@link #throttleDelay} reads.
   */
  public static FaultAction parse(String text) {
    Objects.requireNonNull(text, "text");
    String wanted = text.trim().toLowerCase(Locale.ROOT).replace('_', '-');
    if (wanted.startsWith(THROTTLE.text)) {
      throttleDelay(text);
      return THROTTLE;
    }
    for (FaultAction action : values()) {
      if (action.text.equals(wanted)) {
        return action;
      }
    }
    throw new IllegalArgumentException(
        "Unknown fault action '"
            + text
            + "'; use one of "
            + Arrays.stream(values())
                .map(action -> action == THROTTLE ? "throttle-<N>ms" : action.text())
                .collect(Collectors.joining(", ")));
  }

  /**
   * The delay per element of a throttle's text form: 2 ms for {@code throttle-2ms}, 0.5 ms for
   * {@code throttle-500us}; positive and at most {@link #LONGEST_THROTTLE}.
   */
  public static Duration throttleDelay(String text) {
    Objects.requireNonNull(text, "text");
    Matcher matcher = THROTTLE_TEXT.matcher(text.trim().toLowerCase(Locale.ROOT));
    if (!matcher.matches()) {
      throw new IllegalArgumentException(
          "A throttle names its delay per element, e.g. throttle-2ms or throttle-500us; got '"
              + text
              + "'");
    }
    long amount = Long.parseLong(matcher.group(1));
    Duration delay =
        "ms".equals(matcher.group(2))
            ? Duration.ofMillis(amount)
            : Duration.ofNanos(amount * 1_000);
    if (delay.isZero() || delay.compareTo(LONGEST_THROTTLE) > 0) {
      throw new IllegalArgumentException(
          "A throttle's delay per element must be above 0 and at most "
              + LONGEST_THROTTLE.toMillis()
              + " ms; got '"
              + text
              + "'");
    }
    return delay;
  }

  @Override
  public String toString() {
    return text;
  }
}
