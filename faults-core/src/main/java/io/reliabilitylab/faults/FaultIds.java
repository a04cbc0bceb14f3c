package io.reliabilitylab.faults;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.reliabilitylab.spi.Named;
import io.reliabilitylab.spi.pipeline.JobFailure;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apiguardian.api.API;

/**
 * Fault ids of the form {@code srl-fault-<n>-<fault-name>}, e.g. {@code srl-fault-3-task-failure}.
 * A fault puts its id into every exception it causes, so the lab proves it fired by finding the id
 * in the job's exception history, and never mistakes another fault's failure (or an unrelated one)
 * for it.
 *
 * <pre>{@code
 * String id = FaultIds.of(3, "task-failure");
 * List<JobFailure> proofs = FaultIds.failuresCarrying(id, jobControl.exceptionHistory());
 * }</pre>
 */
@API(status = EXPERIMENTAL)
public final class FaultIds {

  /** The prefix every fault id starts with. */
  public static final String PREFIX = "srl-fault-";

  // A fault id stands alone: no id character right before or after it, so that
  // srl-fault-1-task-failure is not found inside srl-fault-1-task-failure-slow or
  // srl-fault-11-task-failure.
  private static final Pattern ID =
      Pattern.compile(
          "(?<![a-z0-9-])srl-fault-([1-9][0-9]{0,18})-([a-z][a-z0-9]*(?:-[a-z0-9]+)*)(?![a-z0-9-])");

  private FaultIds() {}

  /**
   * The id of the {@code sequence}-th injection of a run (counted from 1) of the fault named {@code
   * faultName}.
   */
  public static String of(long sequence, String faultName) {
    Objects.requireNonNull(faultName, "faultName");
    if (sequence < 1) {
      throw new IllegalArgumentException(
          "A fault id's sequence number counts injections from 1, got " + sequence);
    }
    if (!Named.isValidName(faultName)) {
      throw new IllegalArgumentException(
          "'" + faultName + "' is not a fault name: use lower-case kebab-case, e.g. task-failure");
    }
    return PREFIX + sequence + "-" + faultName;
  }

  /** Whether {@code text} is exactly one fault id. */
  public static boolean isValid(String text) {
    return ID.matcher(text).matches();
  }

  /** The sequence number of a fault id: 3 for {@code srl-fault-3-task-failure}. */
  public static long sequence(String faultId) {
    String digits = parse(faultId).group(1);
    try {
      return Long.parseLong(digits);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          "The sequence number of '" + faultId + "' does not fit a long", e);
    }
  }

  /** The fault name of a fault id: {@code task-failure} for {@code srl-fault-3-task-failure}. */
  public static String faultName(String faultId) {
    return parse(faultId).group(2);
  }

  /** Whether {@code text} (an exception message, a log line) mentions this fault id on its own. */
  public static boolean mentionedIn(String faultId, String text) {
    requireValid(faultId);
    Matcher matcher = ID.matcher(text);
    while (matcher.find()) {
      if (matcher.group().equals(faultId)) {
        return true;
      }
    }
    return false;
  }

  /** Every fault id mentioned in {@code text}, in order of appearance. */
  public static List<String> findAll(String text) {
    List<String> ids = new ArrayList<>();
    Matcher matcher = ID.matcher(text);
    while (matcher.find()) {
      ids.add(matcher.group());
    }
    return ids;
  }

  /** The first fault id mentioned in {@code text}, if any. */
  public static Optional<String> findFirst(String text) {
    Matcher matcher = ID.matcher(text);
    return matcher.find() ? Optional.of(matcher.group()) : Optional.empty();
  }

  /**
   * The entries of a job's exception history that this fault caused, oldest first: the proof that
   * it fired.
   */
  public static List<JobFailure> failuresCarrying(String faultId, List<JobFailure> history) {
    requireValid(faultId);
    return history.stream().filter(failure -> mentionedIn(faultId, failure.message())).toList();
  }

  private static Matcher parse(String faultId) {
    Matcher matcher = ID.matcher(requireValid(faultId));
    if (!matcher.matches()) {
      throw new IllegalStateException("unreachable: " + faultId);
    }
    return matcher;
  }

  private static String requireValid(String faultId) {
    Objects.requireNonNull(faultId, "faultId");
    if (!isValid(faultId)) {
      throw new IllegalArgumentException(
          "'"
              + faultId
              + "' is not a fault id; expected "
              + PREFIX
              + "<n>-<fault-name>, e.g. srl-fault-3-task-failure");
    }
    return faultId;
  }
}
