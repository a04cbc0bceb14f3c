package io.reliabilitylab.pipeline.flink.faults;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.reliabilitylab.spi.fault.FaultPosition;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Arms and disarms the reference jobs' fault points, and tells when an armed point fired. Every
 * point is a no-op until armed: on the hot path a point reads one volatile flag. An arming fires at
 * most once; it carries its fault id into the exception it causes, so the lab can find it in the
 * job's exception history, and {@link #firing} keeps when (and at which checkpoint) it fired.
 * Counts ({@code after-event:K}, {@code snapshot-phase:K}) start at the arming and are shared by
 * the point's subtasks in this JVM: arm before submitting the job, or before opening its {@link
 * StartGates start gate}, to count from the job's start.
 *
 * <p>The registry is static, in this JVM: it reaches the job's operators, enumerator, checkpoint
 * storage and committers because a MiniCluster runs them in the lab's JVM (with the application
 * class loader). A job on a cluster of other processes runs in other JVMs, where this registry is a
 * different instance: there the lab arms through a {@link FaultChannel}, whose watcher in each JVM
 * arms that JVM's registry and claims a firing so that it happens once across JVMs.
 *
 * <pre>{@code
 * FaultSwitchboard.arm(
 *     FaultSwitchboard.OPERATOR, FaultPosition.parse("after-event:500"), FaultAction.THROW,
 *     "srl-fault-1-task-exception");
 * // ... await the job's failure and recovery ...
 * Optional<Instant> fired = FaultSwitchboard.firedAt("srl-fault-1-task-exception");
 * FaultSwitchboard.disarm("srl-fault-1-task-exception");
 * }</pre>
 *
 * <p>Positions per point: {@code source-enumerator}: {@code now} (polled every 100 ms), {@code
 * at-checkpoint:N} (when the enumerator snapshots checkpoint N or a later one), {@code
 * after-event:K} (counts the split requests the enumerator handled, since it sees no events);
 * action {@code throw}, delivered on the coordinator thread, which fails the job globally. {@code
 * operator}: {@code now}, {@code after-event:K} and {@code snapshot-phase:K} (K events, or K
 * snapshot rows, pass, counted across subtasks from the arming, then the next one triggers), {@code
 * at-checkpoint:N}; actions {@code throw}, {@code stall}, {@code throttle-<N>ms} (from the position
 * on, each element waits N ms until disarmed; not a failure) and, at a checkpoint, {@code
 * throw-on-checkpoint-complete}. {@code checkpoint-storage}: {@code now}, {@code at-checkpoint:N}
 * (the first file written into the directory of checkpoint N or a later one); {@code throw} fails
 * that write, {@code stall} delays it. {@code sink-commit} (either table), {@code
 * sink-commit-current}, {@code sink-commit-changelog}: {@code now}, {@code at-checkpoint:N} and
 * {@code around-commit:N:...} (the commit whose snapshot summary says {@code
 * flink.max-committed-checkpoint-id} ≥ N); actions {@code fail-commit-before-swap}, {@code
 * fail-commit-after-swap}, {@code commit-state-unknown} and {@code throw} (the side the
 * around-commit position names, else before the swap).
 */
@API(status = EXPERIMENTAL)
public final class FaultSwitchboard {

  /** The source's split enumerator (a coordinator failure: global failover). */
  public static final String SOURCE_ENUMERATOR = "source-enumerator";

  /** An operator between the source and the sinks that throws or stalls. */
  public static final String OPERATOR = "operator";

  /** The checkpoint storage's file system, which fails or delays a checkpoint's files. */
  public static final String CHECKPOINT_STORAGE = "checkpoint-storage";

  /** The Iceberg commit of either sink, whichever commits first. */
  public static final String SINK_COMMIT = "sink-commit";

  /** The Iceberg commit of {@code orders_current}. */
  public static final String SINK_COMMIT_CURRENT = "sink-commit-current";

  /** The Iceberg commit of {@code orders_changelog}. */
  public static final String SINK_COMMIT_CHANGELOG = "sink-commit-changelog";

  /** How long a stall lasts at most when nobody disarms it: a safety net, not a schedule. */
  public static final Duration DEFAULT_STALL_LIMIT = Duration.ofMinutes(5);

  private static final Logger LOG = LoggerFactory.getLogger(FaultSwitchboard.class);

  private static final Map<String, Rules> RULES = rules();
  private static final Object LOCK = new Object();
  private static final List<Arming> ACTIVE = new CopyOnWriteArrayList<>();
  private static final Map<String, Arming> ARMED_BY_ID = new ConcurrentHashMap<>();
  private static final Map<String, FaultFiring> FIRED = new ConcurrentHashMap<>();
  private static volatile boolean anyArmed;

  private FaultSwitchboard() {}

  /** The names of the fault points, in a stable order. */
  public static Set<String> points() {
    return RULES.keySet();
  }

  /** Arms a point with the {@linkplain #DEFAULT_STALL_LIMIT default stall limit}. */
  public static void arm(String point, FaultPosition position, FaultAction action, String faultId) {
    arm(point, position, action, faultId, DEFAULT_STALL_LIMIT);
  }

  /**
   * Arms a point; the action in its text form, e.g. {@code fail-commit-after-swap}, or {@code
   * throttle-2ms} for a throttle with its delay per element.
   */
  public static void arm(String point, FaultPosition position, String action, String faultId) {
    register(armingOf(point, position, action, faultId, DEFAULT_STALL_LIMIT, null));
  }

  /**
   * Checks an arming in the text form exactly as {@link #arm(String, FaultPosition, String,
   * String)} does, without arming anything: for a channel that arms the point in other JVMs.
   */
  static void check(String point, FaultPosition position, String action, String faultId) {
    armingOf(point, position, action, faultId, DEFAULT_STALL_LIMIT, null);
  }

  /**
   * Arms a point in this JVM on behalf of a {@link FaultChannel}: before it fires (or a throttle
   * reports its start) the arming asks {@code claim}, so that it fires once across JVMs.
   */
  static void armClaimed(
      String point,
      FaultPosition position,
      String action,
      String faultId,
      Duration stallLimit,
      FiringClaim claim) {
    register(armingOf(point, position, action, faultId, stallLimit, claim));
  }

  private static Arming armingOf(
      String point,
      FaultPosition position,
      String action,
      String faultId,
      Duration stallLimit,
      @Nullable FiringClaim claim) {
    Objects.requireNonNull(action, "action");
    FaultAction parsed = FaultAction.parse(action);
    Duration throttle = Duration.ZERO;
    if (parsed == FaultAction.THROTTLE) {
      throttle = FaultAction.throttleDelay(action);
      checkThrottle(throttle);
    }
    validate(point, position, parsed, faultId, stallLimit);
    return new Arming(point, position, parsed, faultId, stallLimit, throttle, claim);
  }

  /**
   * Arms a throttle at {@code point} (the {@value #OPERATOR} point): from {@code position} on
   * ({@code now}, {@code after-event:K} or {@code snapshot-phase:K}) every element (at {@code
   * snapshot-phase:K}, every snapshot row) is delayed by {@code perElement} until the fault is
   * disarmed, so a burst of changes backs the job up. Nothing is thrown; {@link #firedAt} says when
   * throttling began.
   *
   * <pre>{@code
   * FaultSwitchboard.throttle(
   *     FaultSwitchboard.OPERATOR, new FaultPosition.Now(), Duration.ofMillis(2), "srl-fault-1-pressure");
   * }</pre>
   */
  public static void throttle(
      String point, FaultPosition position, Duration perElement, String faultId) {
    Objects.requireNonNull(perElement, "perElement");
    checkThrottle(perElement);
    arm(point, position, FaultAction.THROTTLE, faultId, DEFAULT_STALL_LIMIT, perElement);
  }

  private static void checkThrottle(Duration perElement) {
    if (perElement.isNegative()
        || perElement.isZero()
        || perElement.compareTo(FaultAction.LONGEST_THROTTLE) > 0) {
      throw new IllegalArgumentException(
          "A throttle's delay per element must be above 0 and at most "
              + FaultAction.LONGEST_THROTTLE.toMillis()
              + " ms; got "
              + perElement);
    }
  }

  /**
   * Arms {@code point}: when the job reaches {@code position}, the point performs {@code action}
   * once, carrying {@code faultId}. A stall ends when the fault is disarmed, at the latest after
   * {@code stallLimit}. Fails with a message naming the accepted values if the point does not
   * support the position or the action, or if the fault id is armed already.
   */
  public static void arm(
      String point,
      FaultPosition position,
      FaultAction action,
      String faultId,
      Duration stallLimit) {
    if (action == FaultAction.THROTTLE) {
      throw new IllegalArgumentException(
          "A throttle needs its delay per element: arm it with throttle(...) or the text form"
              + " throttle-2ms");
    }
    arm(point, position, action, faultId, stallLimit, Duration.ZERO);
  }

  private static void arm(
      String point,
      FaultPosition position,
      FaultAction action,
      String faultId,
      Duration stallLimit,
      Duration throttle) {
    validate(point, position, action, faultId, stallLimit);
    register(new Arming(point, position, action, faultId, stallLimit, throttle, null));
  }

  private static void validate(
      String point,
      FaultPosition position,
      FaultAction action,
      String faultId,
      Duration stallLimit) {
    Objects.requireNonNull(point, "point");
    Objects.requireNonNull(position, "position");
    Objects.requireNonNull(action, "action");
    Objects.requireNonNull(faultId, "faultId");
    Objects.requireNonNull(stallLimit, "stallLimit");
    Rules rules = RULES.get(point);
    if (rules == null) {
      throw new IllegalArgumentException(
          "Unknown fault point '" + point + "'; this job has " + String.join(", ", points()));
    }
    if (!rules.kinds().contains(position.kind())) {
      throw new IllegalArgumentException(
          "Fault point '"
              + point
              + "' cannot fire at "
              + position.text()
              + "; it supports "
              + rules.kinds().stream()
                  .map(FaultPosition.Kind::text)
                  .collect(Collectors.joining(", ")));
    }
    if (!rules.actions().contains(action)) {
      throw new IllegalArgumentException(
          "Fault point '"
              + point
              + "' cannot "
              + action.text()
              + "; it supports "
              + rules.actions().stream().map(FaultAction::text).collect(Collectors.joining(", ")));
    }
    if (action == FaultAction.THROTTLE && position.kind() == FaultPosition.Kind.AT_CHECKPOINT) {
      throw new IllegalArgumentException(
          "A throttle starts now, after-event:K or snapshot-phase:K, got " + position.text());
    }
    if (action == FaultAction.THROW_ON_CHECKPOINT_COMPLETE
        && position.kind() != FaultPosition.Kind.AT_CHECKPOINT) {
      throw new IllegalArgumentException(
          "throw-on-checkpoint-complete needs an at-checkpoint:N position, got " + position.text());
    }
    if (position instanceof FaultPosition.AroundCommit around
        && (action == FaultAction.FAIL_COMMIT_BEFORE_SWAP && around.afterSwap()
            || (action == FaultAction.FAIL_COMMIT_AFTER_SWAP
                    || action == FaultAction.COMMIT_STATE_UNKNOWN)
                && !around.afterSwap())) {
      throw new IllegalArgumentException(
          "Action " + action.text() + " contradicts position " + position.text());
    }
    if (faultId.isBlank() || !faultId.equals(faultId.strip())) {
      throw new IllegalArgumentException(
          "A fault id must be non-blank without surrounding spaces, e.g. srl-fault-1-task-failure;"
              + " got '"
              + faultId
              + "'");
    }
    if (stallLimit.isNegative() || stallLimit.isZero()) {
      throw new IllegalArgumentException("stallLimit must be positive, got " + stallLimit);
    }
  }

  private static void register(Arming arming) {
    synchronized (LOCK) {
      if (ARMED_BY_ID.containsKey(arming.faultId())) {
        throw alreadyArmed(arming.faultId());
      }
      ARMED_BY_ID.put(arming.faultId(), arming);
      FIRED.remove(arming.faultId());
      ACTIVE.add(arming);
      anyArmed = true;
    }
    LOG.info(
        "Armed fault {} at point {}: {}{} at {}{}",
        arming.faultId(),
        arming.point(),
        arming.action(),
        arming.action() == FaultAction.THROTTLE
            ? " " + arming.throttleDelay().toNanos() / 1_000 + " us per element"
            : "",
        arming.position().text(),
        arming.claimed() ? " (through the fault channel)" : "");
  }

  static IllegalStateException alreadyArmed(String faultId) {
    return new IllegalStateException(
        "Fault " + faultId + " is armed already; disarm it before arming it again");
  }

  /** Disarms the point armed with this fault id (and ends its stall); unknown ids are ignored. */
  public static void disarm(String faultId) {
    Objects.requireNonNull(faultId, "faultId");
    Arming arming;
    synchronized (LOCK) {
      arming = ARMED_BY_ID.remove(faultId);
      if (arming != null) {
        ACTIVE.remove(arming);
        anyArmed = !ACTIVE.isEmpty();
      }
    }
    if (arming != null) {
      arming.release();
      LOG.info("Disarmed fault {}", faultId);
    }
  }

  /** When the point armed with this fault id fired; still answered after disarming. */
  public static Optional<Instant> firedAt(String faultId) {
    return firing(faultId).map(FaultFiring::at);
  }

  /**
   * How the point armed with this fault id fired (when, and at which checkpoint if the point knows
   * it), for the fault's evidence; still answered after disarming, forgotten by {@link #reset()}.
   */
  public static Optional<FaultFiring> firing(String faultId) {
    Objects.requireNonNull(faultId, "faultId");
    return Optional.ofNullable(FIRED.get(faultId));
  }

  /** Disarms every point and forgets every firing: between scenarios and tests. */
  public static void reset() {
    List<String> ids;
    synchronized (LOCK) {
      ids = new ArrayList<>(ARMED_BY_ID.keySet());
    }
    ids.forEach(FaultSwitchboard::disarm);
    FIRED.clear();
  }

  /** Whether any point is armed and not yet fired: the hot path's one volatile read. */
  public static boolean anyArmed() {
    return anyArmed;
  }

  /** The armings at a point that have not fired yet. */
  static List<Arming> armed(String point) {
    if (!anyArmed) {
      return List.of();
    }
    List<Arming> found = new ArrayList<>(1);
    for (Arming arming : ACTIVE) {
      if (arming.point().equals(point)) {
        found.add(arming);
      }
    }
    return found;
  }

  /** Called by an arming when it fires: it leaves the active list, its time is kept. */
  static void fired(Arming arming, FaultFiring firing) {
    FIRED.put(arming.faultId(), firing);
    synchronized (LOCK) {
      ACTIVE.remove(arming);
      anyArmed = !ACTIVE.isEmpty();
    }
    // INFO: an injected fault firing is the plan, not a problem for the user to look at.
    LOG.info(
        "Fault {} fired at point {}: {} at {}{}",
        arming.faultId(),
        arming.point(),
        arming.action(),
        arming.position().text(),
        firing.checkpointId() == null ? "" : " (checkpoint " + firing.checkpointId() + ")");
  }

  /**
   * Called by an arming whose claim another JVM (or an earlier incarnation) won: it leaves the
   * active list without a firing of its own.
   */
  static void firedElsewhere(Arming arming) {
    synchronized (LOCK) {
      ACTIVE.remove(arming);
      anyArmed = !ACTIVE.isEmpty();
    }
    LOG.info(
        "Fault {} reached its position at point {} but fired elsewhere already: not firing again",
        arming.faultId(),
        arming.point());
  }

  /** Whether this fault id is armed in this JVM (by a call or through a channel). */
  static boolean isArmed(String faultId) {
    return ARMED_BY_ID.containsKey(faultId);
  }

  /** Called by a throttle when it begins: its time is kept, it stays active until disarmed. */
  static void started(Arming arming, FaultFiring firing) {
    FIRED.put(arming.faultId(), firing);
    LOG.info(
        "Fault {} began throttling at point {} at {}",
        arming.faultId(),
        arming.point(),
        arming.position().text());
  }

  private record Rules(Set<FaultPosition.Kind> kinds, Set<FaultAction> actions) {}

  private static Map<String, Rules> rules() {
    Map<String, Rules> rules = new LinkedHashMap<>();
    rules.put(
        SOURCE_ENUMERATOR,
        new Rules(
            EnumSet.of(
                FaultPosition.Kind.NOW,
                FaultPosition.Kind.AT_CHECKPOINT,
                FaultPosition.Kind.AFTER_EVENT),
            EnumSet.of(FaultAction.THROW)));
    rules.put(
        OPERATOR,
        new Rules(
            EnumSet.of(
                FaultPosition.Kind.NOW,
                FaultPosition.Kind.AFTER_EVENT,
                FaultPosition.Kind.SNAPSHOT_PHASE,
                FaultPosition.Kind.AT_CHECKPOINT),
            EnumSet.of(
                FaultAction.THROW,
                FaultAction.STALL,
                FaultAction.THROW_ON_CHECKPOINT_COMPLETE,
                FaultAction.THROTTLE)));
    rules.put(
        CHECKPOINT_STORAGE,
        new Rules(
            EnumSet.of(FaultPosition.Kind.NOW, FaultPosition.Kind.AT_CHECKPOINT),
            EnumSet.of(FaultAction.THROW, FaultAction.STALL)));
    Rules commit =
        new Rules(
            EnumSet.of(
                FaultPosition.Kind.NOW,
                FaultPosition.Kind.AT_CHECKPOINT,
                FaultPosition.Kind.AROUND_COMMIT),
            EnumSet.of(
                FaultAction.THROW,
                FaultAction.FAIL_COMMIT_BEFORE_SWAP,
                FaultAction.FAIL_COMMIT_AFTER_SWAP,
                FaultAction.COMMIT_STATE_UNKNOWN));
    rules.put(SINK_COMMIT, commit);
    rules.put(SINK_COMMIT_CURRENT, commit);
    rules.put(SINK_COMMIT_CHANGELOG, commit);
    return Collections.unmodifiableMap(rules);
  }
}
