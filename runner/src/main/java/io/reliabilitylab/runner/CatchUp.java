package io.reliabilitylab.runner;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.reliabilitylab.spi.data.ChangeEvent;
import io.reliabilitylab.spi.pipeline.SnapshotInfo;
import io.reliabilitylab.spi.pipeline.TableAccess;
import io.reliabilitylab.workload.oracle.Expectation;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Waits, by measurement and never by a fixed sleep, until both sink tables hold the workload: the
 * changelog shows the last expected envelope of every key, and the current table has a snapshot
 * committed by the same checkpoint or a later one. The last event written is not enough: a pipeline
 * keeps each key's order, not the order between keys (see {@link LastEnvelopes}). A sink that shows
 * the workload's end but never some key's last envelope is judged as it is once it has appended
 * nothing for a while, so that the checks name what it lost.
 */
@API(status = EXPERIMENTAL)
public final class CatchUp {

  /** How often the tables are looked at: far below a checkpoint interval, far above a scan. */
  private static final Duration POLL = Duration.ofMillis(100);

  /**
   * How long a sink that shows the workload's end but lacks some key's last envelope must append
   * nothing before it is judged as it is: longer than a Kafka fetch stuck until its request timeout
   * (10 s) after a broker restart.
   */
  private static final Duration QUIET = Duration.ofSeconds(15);

  private static final Logger LOG = LoggerFactory.getLogger(CatchUp.class);

  private CatchUp() {}

  /**
   * The snapshots both tables were caught up at.
   *
   * @param changelog the changelog snapshot that holds the last event
   * @param current the current-table snapshot committed by that checkpoint or a later one
   * @param reachedAt when catch-up was observed
   */
  public record Point(SnapshotInfo changelog, SnapshotInfo current, Instant reachedAt) {
    /** The checkpoint the comparison is made at. */
    public @Nullable Long checkpointId() {
      return changelog.committedCheckpointId();
    }
  }

  /**
   * Waits until the tables hold {@code lastEventId}, or, for an empty workload, until both tables
   * have committed a snapshot. Enough only for a sink fed in one order: a multi-row statement or
   * independent partitions can commit the last event before others (see {@link LastEnvelopes}).
   *
   * @throws WaitTimedOutException at the deadline, saying which table lagged and where it was
   */
  public static Point await(
      TableAccess tables, @Nullable Long lastEventId, Duration timeout, Clock clock)
      throws Exception {
    return await(tables, lastEventId, List.of(), timeout, clock);
  }

  /**
   * Waits until the changelog shows every key's last envelope in {@code expected} and the current
   * table committed the same checkpoint or a later one — or, when it shows the workload's end (its
   * last written event and the deletes after it) but lacks some key's last envelope, until it has
   * appended nothing for 15 s; the point is at the latest changelog snapshot seen.
   *
   * @throws WaitTimedOutException at the deadline, naming a few envelopes still missing
   */
  public static Point await(TableAccess tables, Expectation expected, Duration timeout, Clock clock)
      throws Exception {
    return awaitEveryKey(tables, expected.events(), timeout, clock);
  }

  /**
   * As {@link #await(TableAccess, Expectation, Duration, Clock)}, for the expected envelopes in
   * source-position order.
   */
  public static Point awaitEveryKey(
      TableAccess tables, List<ChangeEvent> expected, Duration timeout, Clock clock)
      throws Exception {
    return awaitEveryKey(tables, expected, timeout, QUIET, true, clock);
  }

  /**
   * As {@link #awaitEveryKey(TableAccess, List, Duration, Clock)} for a scenario expected to lose
   * events: a sink that lacks some key's last envelope is judged as it is once it appended nothing
   * for {@code quiet}, whether or not it shows the workload's end — the lost events never arrive,
   * and they may be the last ones written.
   */
  public static Point awaitExpectingLoss(
      TableAccess tables, List<ChangeEvent> expected, Duration timeout, Duration quiet, Clock clock)
      throws Exception {
    return awaitEveryKey(tables, expected, timeout, quiet, false, clock);
  }

  private static Point awaitEveryKey(
      TableAccess tables,
      List<ChangeEvent> expected,
      Duration timeout,
      Duration quiet,
      boolean endRequired,
      Clock clock)
      throws Exception {
    LastEnvelopes pending = LastEnvelopes.of(expected);
    ChangelogWalk walk = new ChangelogWalk(tables);
    Instant deadline = clock.instant().plus(timeout);
    SnapshotInfo walked = null;
    Instant lastAppendAt = clock.instant();
    String progress = "no snapshot committed yet";
    while (true) {
      long[] appended = {0};
      SnapshotInfo newest =
          walk.walk(
              (snapshot, event) -> {
                appended[0]++;
                pending.seen(event);
              });
      if (newest != null) {
        walked = newest;
        lastAppendAt = appended[0] > 0 ? clock.instant() : lastAppendAt;
      }
      List<SnapshotInfo> currents = tables.snapshots(tables.currentTable());
      Optional<SnapshotInfo> current = latest(currents);
      if (walked != null && current.isPresent()) {
        boolean aligned = aligned(currents, walked);
        if (pending.complete() && aligned) {
          return new Point(walked, current.get(), clock.instant());
        }
        if (aligned && (pending.endShown() || !endRequired) && quiet(lastAppendAt, quiet, clock)) {
          // A sink that lost envelopes never shows them: judge it once nothing more arrives, so
          // that the checks name what is missing instead of a catch-up timeout.
          LOG.warn(
              "{} {} the workload's end, lacks the last envelope of {} of {} keys (e.g. {}),"
                  + " and appended nothing for {} ms: judging it as it is",
              tables.changelogTable(),
              pending.endShown() ? "shows" : "does not show",
              pending.missing(),
              pending.keys(),
              pending.sample(),
              quiet.toMillis());
          return new Point(walked, current.get(), clock.instant());
        }
        progress =
            tables.changelogTable()
                + " at snapshot "
                + walked.snapshotId()
                + " (checkpoint "
                + walked.committedCheckpointId()
                + (pending.complete()
                    ? ", shows the last envelope of all " + pending.keys() + " keys"
                    : ", lacks the last envelope of "
                        + pending.missing()
                        + " of "
                        + pending.keys()
                        + " keys, e.g. "
                        + pending.sample()
                        + (pending.endShown() ? "" : "; lacks " + pending.endMissing()))
                + "), "
                + tables.currentTable()
                + " at snapshot "
                + current.get().snapshotId()
                + " (checkpoint "
                + current.get().committedCheckpointId()
                + ")";
      }
      if (clock.instant().isAfter(deadline)) {
        throw new WaitTimedOutException(
            "The sink did not catch up within " + timeout.toSeconds() + " s: " + progress);
      }
      Thread.sleep(POLL.toMillis());
    }
  }

  /**
   * As {@link #await(TableAccess, Long, Duration, Clock)}, and the changelog also holds each of
   * {@code trailingDeletes}: the deletes after the last written event, which write no event id of
   * their own, so that a workload ending with deletes is not judged before they arrive.
   */
  public static Point await(
      TableAccess tables,
      @Nullable Long lastEventId,
      List<ChangeEvent> trailingDeletes,
      Duration timeout,
      Clock clock)
      throws Exception {
    Instant deadline = clock.instant().plus(timeout);
    String progress = "no snapshot committed yet";
    while (true) {
      List<SnapshotInfo> changelogs = tables.snapshots(tables.changelogTable());
      List<SnapshotInfo> currents = tables.snapshots(tables.currentTable());
      Optional<SnapshotInfo> changelog = latest(changelogs);
      Optional<SnapshotInfo> current = latest(currents);
      if (changelog.isPresent() && current.isPresent()) {
        SnapshotInfo cl = changelog.get();
        SnapshotInfo cur = current.get();
        boolean holdsEvent =
            lastEventId == null || tables.changelogContains(cl.snapshotId(), lastEventId);
        boolean holdsDeletes = holdsEvent && holdsAll(tables, cl.snapshotId(), trailingDeletes);
        boolean holdsLast = holdsEvent && holdsDeletes;
        if (holdsLast && aligned(currents, cl)) {
          return new Point(cl, cur, clock.instant());
        }
        progress =
            tables.changelogTable()
                + " at snapshot "
                + cl.snapshotId()
                + " (checkpoint "
                + cl.committedCheckpointId()
                + (lastEventId == null
                    ? ""
                    : (holdsEvent ? ", holds" : ", lacks") + " event " + lastEventId)
                + (trailingDeletes.isEmpty()
                    ? ""
                    : (holdsDeletes ? ", holds" : ", lacks")
                        + " the "
                        + trailingDeletes.size()
                        + " deletes after it")
                + "), "
                + tables.currentTable()
                + " at snapshot "
                + cur.snapshotId()
                + " (checkpoint "
                + cur.committedCheckpointId()
                + ")";
      }
      if (clock.instant().isAfter(deadline)) {
        throw new WaitTimedOutException(
            "The sink did not catch up within " + timeout.toSeconds() + " s: " + progress);
      }
      Thread.sleep(POLL.toMillis());
    }
  }

  private static boolean quiet(Instant lastAppendAt, Duration quiet, Clock clock) {
    return Duration.between(lastAppendAt, clock.instant()).compareTo(quiet) >= 0;
  }

  /**
   * Whether the current table committed the checkpoint of changelog snapshot {@code cl} or a later
   * one. A maintenance snapshot (a compaction) carries no checkpoint id: it holds the content of
   * the checkpoint committed before it.
   */
  private static boolean aligned(List<SnapshotInfo> currents, SnapshotInfo cl) {
    return cl.committedCheckpointId() != null
        ? effectiveCheckpoint(currents) >= checkpointOf(cl)
        : currentPassed(currents, cl.committedAt());
  }

  private static boolean holdsAll(TableAccess tables, long snapshotId, List<ChangeEvent> deletes)
      throws Exception {
    for (ChangeEvent delete : deletes) {
      if (!tables.changelogContains(snapshotId, delete.op(), delete.eventId())) {
        return false;
      }
    }
    return true;
  }

  /** The tables' latest snapshots as a point, without waiting; null when either has none. */
  public static @Nullable Point latest(TableAccess tables, Clock clock) throws Exception {
    Optional<SnapshotInfo> changelog = latest(tables.snapshots(tables.changelogTable()));
    Optional<SnapshotInfo> current = latest(tables.snapshots(tables.currentTable()));
    return changelog.isPresent() && current.isPresent()
        ? new Point(changelog.get(), current.get(), clock.instant())
        : null;
  }

  private static Optional<SnapshotInfo> latest(List<SnapshotInfo> snapshots) {
    return snapshots.isEmpty()
        ? Optional.empty()
        : Optional.of(snapshots.get(snapshots.size() - 1));
  }

  /**
   * For a changelog snapshot that names no checkpoint (a writer that commits outside Flink's
   * checkpoints): the current table has committed a checkpoint that was triggered after that
   * snapshot — one commit after the first checkpoint committed since, whose barrier followed every
   * event the changelog held by then.
   */
  private static boolean currentPassed(List<SnapshotInfo> currents, Instant changelogCommittedAt) {
    Long first = null;
    for (SnapshotInfo snapshot : currents) {
      Long id = snapshot.committedCheckpointId();
      if (id != null && snapshot.committedAt().isAfter(changelogCommittedAt)) {
        first = id;
        break;
      }
    }
    return first != null && effectiveCheckpoint(currents) >= first + 1;
  }

  private static long effectiveCheckpoint(List<SnapshotInfo> snapshots) {
    for (int i = snapshots.size() - 1; i >= 0; i--) {
      if (snapshots.get(i).committedCheckpointId() != null) {
        return snapshots.get(i).committedCheckpointId();
      }
    }
    return Long.MIN_VALUE;
  }

  private static long checkpointOf(SnapshotInfo snapshot) {
    Long id = snapshot.committedCheckpointId();
    return id == null ? Long.MIN_VALUE : id;
  }
}
