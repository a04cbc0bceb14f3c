package io.reliabilitylab.runner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.reliabilitylab.spi.data.ChangeEvent;
import io.reliabilitylab.spi.data.ChangeOp;
import io.reliabilitylab.spi.data.Changelog;
import io.reliabilitylab.spi.data.RowSet;
import io.reliabilitylab.spi.pipeline.SnapshotInfo;
import io.reliabilitylab.spi.pipeline.TableAccess;
import io.reliabilitylab.testkit.OrdersFixtures;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/**
 * Catch-up waits for every key's last envelope, not only for the last one written: a sink fed by
 * independent partitions can commit the workload's last event before another partition's backlog
 * (seen in CI after a broker restart: the tables were judged one snapshot early and 86 envelopes
 * counted missing that the next commit held).
 */
class CatchUpTest {

  private static final List<ChangeEvent> HISTORY = OrdersFixtures.changes();
  private static final Predicate<ChangeEvent> ORDER_3 =
      event -> event.row().get("order_id").equals(3L);

  @Test
  void aKeyWhoseEventsArriveAfterTheLastOneWrittenIsAwaited() throws Exception {
    ScriptedTables tables = orderThreeLagging();

    CatchUp.Point point = CatchUp.awaitEveryKey(tables, HISTORY, Duration.ofSeconds(20), clock());

    assertThat(point.changelog().snapshotId()).isEqualTo(2);
    assertThat(point.checkpointId()).isEqualTo(2);
    assertThat(point.current().committedCheckpointId()).isEqualTo(2);
  }

  @Test
  void theLastEventAloneJudgesThatSinkOneCommitEarly() throws Exception {
    ScriptedTables tables = orderThreeLagging();

    CatchUp.Point point =
        CatchUp.await(
            tables,
            12L,
            List.of(OrdersFixtures.change(ChangeOp.DELETE, 11)),
            Duration.ofSeconds(20),
            clock());

    assertThat(point.changelog().snapshotId()).isEqualTo(1);
  }

  @Test
  void aKeyThatNeverArrivesTimesOutNamingItsLastEnvelope() {
    ScriptedTables tables =
        new ScriptedTables(List.of(HISTORY.stream().filter(ORDER_3.negate()).toList()), 0);

    assertThatThrownBy(
            () -> CatchUp.awaitEveryKey(tables, HISTORY, Duration.ofMillis(300), clock()))
        .isInstanceOf(WaitTimedOutException.class)
        .hasMessageContaining("lacks the last envelope of 1 of 6 keys")
        .hasMessageContaining("c/u:7");
  }

  @Test
  void aSinkThatShowsTheEndButLostAKeyIsJudgedOnceNothingMoreArrives() throws Exception {
    SteppingClock clock = new SteppingClock();
    ScriptedTables tables = orderThreeNeverArrives(clock);

    CatchUp.Point point = CatchUp.awaitEveryKey(tables, HISTORY, Duration.ofSeconds(60), clock);

    assertThat(point.changelog().snapshotId()).isEqualTo(1);
    assertThat(Duration.between(SteppingClock.START, point.reachedAt()))
        .isGreaterThanOrEqualTo(Duration.ofSeconds(15))
        .isLessThan(Duration.ofSeconds(20));
  }

  @Test
  void aScenarioExpectedToLoseEventsIsJudgedAfterAShorterQuiet() throws Exception {
    SteppingClock clock = new SteppingClock();
    ScriptedTables tables = orderThreeNeverArrives(clock);

    CatchUp.Point point =
        CatchUp.awaitExpectingLoss(
            tables, HISTORY, Duration.ofSeconds(20), Duration.ofSeconds(5), clock);

    assertThat(Duration.between(SteppingClock.START, point.reachedAt()))
        .isGreaterThanOrEqualTo(Duration.ofSeconds(5))
        .isLessThan(Duration.ofSeconds(8));
  }

  @Test
  void aScenarioExpectedToLoseTheLastEventsIsJudgedAfterTheQuietNotTheDeadline() throws Exception {
    SteppingClock clock = new SteppingClock();
    ScriptedTables tables =
        new ScriptedTables(List.of(withoutTheLastWrite()), 0).onListing(clock::step);

    CatchUp.Point point =
        CatchUp.awaitExpectingLoss(
            tables, HISTORY, Duration.ofSeconds(20), Duration.ofSeconds(5), clock);

    assertThat(Duration.between(SteppingClock.START, point.reachedAt()))
        .isGreaterThanOrEqualTo(Duration.ofSeconds(5))
        .isLessThan(Duration.ofSeconds(8));
  }

  private static List<ChangeEvent> withoutTheLastWrite() {
    return HISTORY.stream()
        .filter(event -> !(event.op() == ChangeOp.UPDATE && event.eventId() == 12))
        .toList();
  }

  @Test
  void aSinkThatDoesNotShowTheEndTimesOut() {
    SteppingClock clock = new SteppingClock();
    ScriptedTables tables =
        new ScriptedTables(List.of(withoutTheLastWrite()), 0).onListing(clock::step);

    assertThatThrownBy(() -> CatchUp.awaitEveryKey(tables, HISTORY, Duration.ofSeconds(20), clock))
        .isInstanceOf(WaitTimedOutException.class)
        .hasMessageContaining("c/u:12")
        .hasMessageContaining("lacks event 12");
  }

  @Test
  void aSnapshotReadOfAKeysLastVersionStandsForItsEvents() throws Exception {
    ChangeEvent packed = OrdersFixtures.change(ChangeOp.UPDATE, 7);
    ChangeEvent read =
        new ChangeEvent(
            ChangeOp.READ, 7, null, packed.row(), packed.position(), packed.sourceTimestamp());
    List<ChangeEvent> shown = new ArrayList<>(HISTORY.stream().filter(ORDER_3.negate()).toList());
    shown.add(read);
    ScriptedTables tables = new ScriptedTables(List.of(shown), 0);

    CatchUp.Point point = CatchUp.awaitEveryKey(tables, HISTORY, Duration.ofSeconds(20), clock());

    assertThat(point.changelog().snapshotId()).isEqualTo(1);
  }

  @Test
  void aDeleteIsShownOnlyByADeleteRow() {
    // order 5's last envelope is d:11; its create c:11 carries the same event id
    List<ChangeEvent> withoutDelete =
        HISTORY.stream()
            .filter(event -> !(event.op() == ChangeOp.DELETE && event.eventId() == 11))
            .toList();
    ScriptedTables tables = new ScriptedTables(List.of(withoutDelete), 0);

    assertThatThrownBy(
            () -> CatchUp.awaitEveryKey(tables, HISTORY, Duration.ofMillis(300), clock()))
        .isInstanceOf(WaitTimedOutException.class)
        .hasMessageContaining("d:11");
  }

  /** The first commit holds everything but order 3 (its partition lagged), the second adds it. */
  private static ScriptedTables orderThreeLagging() {
    return new ScriptedTables(
        List.of(
            HISTORY.stream().filter(ORDER_3.negate()).toList(),
            HISTORY.stream().filter(ORDER_3).toList()),
        3);
  }

  /** One commit holding everything but order 3, whose envelopes never arrive; time steps. */
  private static ScriptedTables orderThreeNeverArrives(SteppingClock clock) {
    return new ScriptedTables(List.of(HISTORY.stream().filter(ORDER_3.negate()).toList()), 0)
        .onListing(clock::step);
  }

  private static Clock clock() {
    return Clock.systemUTC();
  }

  /** A clock one second further on each {@link #step()}. */
  private static final class SteppingClock extends Clock {
    static final Instant START = Instant.parse("2026-12-02T00:00:00Z");
    private Instant now = START;

    void step() {
      now = now.plusSeconds(1);
    }

    @Override
    public Instant instant() {
      return now;
    }

    @Override
    public java.time.ZoneId getZone() {
      return java.time.ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(java.time.ZoneId zone) {
      return this;
    }
  }

  /**
   * Commits of both tables at checkpoints 1, 2, ...: commit n appends {@code commits.get(n - 1)} to
   * the changelog. The first commit is visible at once; each later one after the changelog's
   * snapshots were listed {@code listingsPerCommit} more times.
   */
  private static final class ScriptedTables implements TableAccess {
    private final List<List<ChangeEvent>> commits;
    private final int listingsPerCommit;
    private int listings;
    private Runnable onListing = () -> {};

    ScriptedTables onListing(Runnable action) {
      this.onListing = action;
      return this;
    }

    ScriptedTables(List<List<ChangeEvent>> commits, int listingsPerCommit) {
      this.commits = commits;
      this.listingsPerCommit = listingsPerCommit;
    }

    private int visible() {
      return listingsPerCommit == 0
          ? commits.size()
          : Math.min(commits.size(), 1 + listings / listingsPerCommit);
    }

    @Override
    public List<SnapshotInfo> snapshots(String table) {
      if (table.equals(changelogTable())) {
        listings++;
        onListing.run();
      }
      List<SnapshotInfo> snapshots = new ArrayList<>();
      for (int n = 1; n <= visible(); n++) {
        snapshots.add(
            new SnapshotInfo(table, n, Instant.EPOCH.plusSeconds(n), "append", "job", (long) n));
      }
      return snapshots;
    }

    @Override
    public Changelog changelogAppended(@Nullable Long fromSnapshotExclusive, long toInclusive) {
      long from = fromSnapshotExclusive == null ? 0 : fromSnapshotExclusive;
      List<ChangeEvent> appended = new ArrayList<>();
      for (long n = from + 1; n <= toInclusive; n++) {
        appended.addAll(commits.get((int) n - 1));
      }
      return OrdersFixtures.changelog(OrdersFixtures.CHANGELOG, appended);
    }

    @Override
    public Changelog changelog(long snapshotId) {
      return changelogAppended(null, snapshotId);
    }

    @Override
    public RowSet source() {
      throw new UnsupportedOperationException("catch-up never reads the source");
    }

    @Override
    public RowSet current(long snapshotId) {
      throw new UnsupportedOperationException("catch-up never reads the current table");
    }

    @Override
    public String currentTable() {
      return "orders_current";
    }

    @Override
    public String changelogTable() {
      return "orders_changelog";
    }
  }
}
