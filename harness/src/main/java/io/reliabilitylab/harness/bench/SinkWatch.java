package io.reliabilitylab.harness.bench;

import io.reliabilitylab.runner.ChangelogWalk;
import io.reliabilitylab.runner.LastEnvelopes;
import io.reliabilitylab.spi.data.ChangeEvent;
import io.reliabilitylab.spi.pipeline.SnapshotInfo;
import io.reliabilitylab.spi.pipeline.TableAccess;
import java.io.PrintWriter;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeoutException;
import org.jspecify.annotations.Nullable;

/**
 * The bench's waits for the sink and its progress lines: every wait polls a condition until a
 * deadline one catch-up timeout away, says every {@link #WAIT_LINE} where it is, and never sleeps
 * for a fixed time.
 */
final class SinkWatch {

  static final Duration POLL = Duration.ofMillis(100);

  /** How often a long wait says where it is, so that a bench at scale is seen to move. */
  private static final Duration WAIT_LINE = Duration.ofSeconds(10);

  private final Clock clock;
  private final Duration timeout;
  private final PrintWriter progress;
  private @Nullable Instant waitDeadline;
  private Instant nextWaitLine = Instant.MIN;

  SinkWatch(Clock clock, Duration timeout, PrintWriter progress) {
    this.clock = clock;
    this.timeout = timeout;
    this.progress = progress;
  }

  Clock clock() {
    return clock;
  }

  /** A new wait's deadline. */
  Instant deadline() {
    return clock.instant().plus(timeout);
  }

  /**
   * Where an event became visible in both tables: the first changelog snapshot that holds it, and
   * the first current-table snapshot committed by that checkpoint or a later one; the criterion of
   * the lab's {@link io.reliabilitylab.runner.CatchUp}.
   */
  record Visible(SnapshotInfo changelog, SnapshotInfo current) {
    /** The later of the two commits. */
    Instant at() {
      return changelog.committedAt().isAfter(current.committedAt())
          ? changelog.committedAt()
          : current.committedAt();
    }
  }

  /**
   * Waits until every key's last envelope in {@code envelopes} (one phase's changes) is visible in
   * both tables — not only the last event written: a multi-row statement's rows reach the binlog in
   * key order, and a Kafka source reads its partitions independently — walking each changelog
   * snapshot once (so that {@code alsoVisit} sees every event of the walked snapshots) instead of
   * scanning the whole changelog at every poll, which would compete with the pipeline for the CPU
   * it measures.
   */
  Visible awaitVisible(
      TableAccess tables,
      ChangelogWalk walk,
      List<ChangeEvent> envelopes,
      ChangelogWalk.Visitor alsoVisit)
      throws Exception {
    Instant deadline = deadline();
    LastEnvelopes pending = LastEnvelopes.of(envelopes);
    SnapshotInfo[] holding = new SnapshotInfo[1];
    ChangelogWalk.Visitor find =
        (snapshot, event) -> {
          alsoVisit.visit(snapshot, event);
          pending.seen(event);
          if (holding[0] == null && pending.complete()) {
            holding[0] = snapshot;
          }
        };
    while (true) {
      if (holding[0] == null) {
        SnapshotInfo newest = walk.walk(find);
        if (holding[0] == null && pending.complete() && newest != null) {
          holding[0] = newest;
        }
      }
      String progressSoFar =
          "the changelog lacks the last envelope of "
              + pending.missing()
              + " of the "
              + pending.keys()
              + " keys the phase changed, e.g. "
              + pending.sample();
      if (holding[0] != null) {
        long checkpoint = checkpointOf(holding[0]);
        for (SnapshotInfo snapshot : tables.snapshots(tables.currentTable())) {
          if (checkpointOf(snapshot) >= checkpoint) {
            return new Visible(holding[0], snapshot);
          }
        }
        progressSoFar =
            tables.changelogTable()
                + " holds the phase's changes since checkpoint "
                + checkpoint
                + ", but "
                + tables.currentTable()
                + " has no snapshot of that checkpoint or a later one";
      }
      awaitNextPoll(deadline, progressSoFar);
    }
  }

  /**
   * Sleeps one poll interval, says {@code progressSoFar} every {@link #WAIT_LINE} of a wait, and
   * throws once {@code deadline} has passed.
   */
  void awaitNextPoll(Instant deadline, String progressSoFar)
      throws TimeoutException, InterruptedException {
    Instant now = clock.instant();
    if (!deadline.equals(waitDeadline)) {
      waitDeadline = deadline;
      nextWaitLine = now.plus(WAIT_LINE);
    } else if (now.isAfter(nextWaitLine)) {
      Duration waited = Duration.between(deadline.minus(timeout), now);
      say("still waiting after %d s: %s", waited.toSeconds(), progressSoFar);
      nextWaitLine = now.plus(WAIT_LINE);
    }
    if (now.isAfter(deadline)) {
      throw new TimeoutException(
          "The pipeline did not get there within "
              + timeout.toSeconds()
              + " s: "
              + progressSoFar
              + "; raise --catch-up-timeout or look at the pipeline's log");
    }
    Thread.sleep(POLL.toMillis());
  }

  void say(String format, Object... arguments) {
    progress.println("bench: " + String.format(Locale.ROOT, format, arguments));
    progress.flush();
  }

  static long checkpointOf(SnapshotInfo snapshot) {
    Long id = snapshot.committedCheckpointId();
    return id == null ? Long.MIN_VALUE : id;
  }
}
