package io.reliabilitylab.checks;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import com.google.auto.service.AutoService;
import io.reliabilitylab.spi.check.CheckContext;
import io.reliabilitylab.spi.check.CheckResult;
import io.reliabilitylab.spi.check.Evidence;
import io.reliabilitylab.spi.check.ReconciliationCheck;
import io.reliabilitylab.spi.data.ChangeEvent;
import io.reliabilitylab.spi.data.Changelog;
import io.reliabilitylab.spi.data.CloseableIterator;
import io.reliabilitylab.spi.data.CommitConsistency;
import io.reliabilitylab.spi.data.DeliverySemantics;
import io.reliabilitylab.spi.data.KeyShard;
import io.reliabilitylab.spi.data.Row;
import io.reliabilitylab.spi.data.RowKey;
import io.reliabilitylab.spi.data.RowSet;
import io.reliabilitylab.spi.data.TableCommit;
import io.reliabilitylab.spi.data.TableHistory;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * Judges every committed state of the sink tables, not only the last: what any reader of a table
 * saw between two commits must have existed in the source.
 *
 * <p><b>Compares</b> the {@linkplain RowSet#history history} of {@link
 * CheckContext#actualCurrent()} and of {@link CheckContext#actualChangelog()} (each commit's own
 * files, read incrementally) with {@link CheckContext#expectedChangelog()}, the source's changes,
 * key by key. For each key the source passed through states: absent, then its row after each
 * change. After every commit, each key the commit touched must show one of those states, no older
 * than the one it showed before: a row the source never held ({@code phantom}), a key shown twice
 * ({@code duplicate_key}), a live row gone and back ({@code vanished}), a deleted key back ({@code
 * resurrected}) or an older version after a newer one ({@code rolled_back}) each fail. In the
 * changelog, the envelopes visible for a key must be a prefix of its changes (from its snapshot
 * read, if it has one): an envelope visible before one it follows is a {@code gap}, one the source
 * never wrote is {@code unknown_envelope}, one visible twice a {@code duplicate_envelope}, one that
 * disappears is {@code retracted}.
 *
 * <p>Then, as far as the pipeline claims it ({@link CheckContext#commitConsistency()}), every
 * commit as a whole: under {@link CommitConsistency#CHANGE_PREFIX} each commit must show the source
 * after one prefix of its change log ({@code no_prefix} otherwise: a key shows a change while
 * another still lacks an earlier one), under {@link CommitConsistency#TRANSACTION_PREFIX} after one
 * prefix of its transactions ({@code torn_transaction}: part of a transaction, or a state inside
 * one). A pipeline that claims only {@link CommitConsistency#PER_KEY} (a broker read partition by
 * partition) is judged key by key. Not judged as a prefix: at-least-once delivery (a replay shows
 * older prefixes again) and a sink holding snapshot reads (an incremental snapshot reads each chunk
 * at its own log position). Evidence names the commit (snapshot, checkpoint), the key, the state
 * shown and the source change (event id and position, whose offset is the source transaction) it
 * matched or followed.
 *
 * <p><b>Passes</b> iff no commit showed such a state. Under {@link DeliverySemantics#AT_LEAST_ONCE}
 * a replay of the source's changes may show older states again: a {@code rolled_back} or {@code
 * resurrected} row, a {@code duplicate_envelope}, and a {@code vanished} key when one of its
 * deletes precedes the state it showed (a replay cannot hide a key the source never deleted) are
 * counted as {@code tolerated} and do not fail.
 *
 * <p><b>Bounded memory</b>: when the source's changes exceed {@link
 * CheckContext#maxRowsInMemory()}, keys are judged in {@linkplain KeyShard shards}, each reading
 * the history again.
 *
 * <p><b>Inconclusive</b> when the expected changelog is absent, when neither sink table offers its
 * history (a store that keeps no commits), or when reading one fails.
 */
@API(status = EXPERIMENTAL)
@AutoService(ReconciliationCheck.class)
public final class ReaderViewCheck implements ReconciliationCheck {

  /** The name this check is selected by. */
  public static final String NAME = "reader-view";

  public ReaderViewCheck() {}

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public String description() {
    return "Judges every committed snapshot of the current and changelog tables, key by key: each"
        + " shows a state the source held, never an older one (no transient loss, resurrection or"
        + " gap) and, as far as the pipeline claims it, one prefix of the source's changes or"
        + " transactions";
  }

  @Override
  public CheckResult check(CheckContext context) {
    Objects.requireNonNull(context, "context");
    if (context.expectedChangelog().isEmpty()) {
      return CheckResult.missingInput(NAME, "the source's changes (expectedChangelog)");
    }
    Changelog expected = context.expectedChangelog().get();
    Optional<RowSet> current = context.actualCurrent();
    Optional<Changelog> changelog = context.actualChangelog();
    if (current.isPresent()) {
      Optional<String> incomparable =
          Inputs.incomparable(expected.schema(), current.get().schema());
      if (incomparable.isPresent()) {
        return Outcomes.incomparable(NAME, incomparable.get());
      }
    }
    try {
      return judge(context, expected, current, changelog);
    } catch (RuntimeException e) {
      return Outcomes.unreadable(NAME, e);
    }
  }

  private static CheckResult judge(
      CheckContext context,
      Changelog expected,
      Optional<RowSet> current,
      Optional<Changelog> changelog) {
    boolean tolerant = context.semantics() == DeliverySemantics.AT_LEAST_ONCE;
    Evidence.Builder evidence = Evidence.builder(context.sampleLimit());
    Outcomes.checkpointFact(context, evidence);
    ReaderViewJudge judge = new ReaderViewJudge(tolerant, evidence);
    CommitConsistency claim = context.commitConsistency();
    boolean prefixClaimed = claim != CommitConsistency.PER_KEY && !tolerant;
    long changes = count(expected);
    int shards = (int) Math.max(1, Math.min(1024, (changes - 1) / context.maxRowsInMemory() + 1));
    PrefixCut currentCut = prefixClaimed ? new PrefixCut(claim, shards > 1) : null;
    PrefixCut changelogCut = prefixClaimed ? new PrefixCut(claim, shards > 1) : null;
    boolean expectedReads = false;
    boolean currentJudged = false;
    boolean changelogJudged = false;
    for (int index = 0; index < shards; index++) {
      KeyShard shard = new KeyShard(shards, index);
      Map<RowKey, KeyTimeline> timelines = timelines(expected, shard);
      expectedReads |= timelines.values().stream().anyMatch(KeyTimeline::hasSnapshotReads);
      if (current.isPresent()) {
        Optional<TableHistory<Row>> history = current.get().history(shard);
        if (history.isPresent()) {
          currentJudged = true;
          try (TableHistory<Row> commits = history.get()) {
            evidence.fact("current_history_start", commits.start());
            ReaderViewJudge.CurrentTable table =
                judge.currentTable(
                    timelines, currentCut == null ? null : currentCut.pass(timelines, true));
            for (Optional<TableCommit<Row>> commit = commits.next();
                commit.isPresent();
                commit = commits.next()) {
              table.apply(commit.get(), index == 0);
            }
          }
        }
      }
      if (changelog.isPresent()) {
        Optional<TableHistory<ChangeEvent>> history = changelog.get().history(shard);
        if (history.isPresent()) {
          changelogJudged = true;
          try (TableHistory<ChangeEvent> commits = history.get()) {
            evidence.fact("changelog_history_start", commits.start());
            ReaderViewJudge.ChangelogTable table =
                judge.changelogTable(
                    timelines, changelogCut == null ? null : changelogCut.pass(timelines, false));
            for (Optional<TableCommit<ChangeEvent>> commit = commits.next();
                commit.isPresent();
                commit = commits.next()) {
              table.apply(commit.get(), index == 0);
            }
          }
        }
      }
    }
    if (!currentJudged && !changelogJudged) {
      return CheckResult.inconclusive(
          NAME,
          "inconclusive: neither sink table offers its commit history (a store that keeps no"
              + " snapshots cannot show what readers saw between commits)",
          evidence.fact("error", "no history").build());
    }
    evidence.fact(
        "commit_consistency",
        prefixJudgement(claim, tolerant, expectedReads || judge.sawSnapshotReads(), shards > 1));
    if (prefixClaimed && !expectedReads && !judge.sawSnapshotReads()) {
      String kind =
          claim == CommitConsistency.TRANSACTION_PREFIX ? "torn_transaction" : "no_prefix";
      judge.prefixViolations(kind, currentCut.violations());
      judge.prefixViolations(kind, changelogCut.violations());
    }
    evidence
        .count("source_changes", changes)
        .count("key_shards", shards)
        .fact("current", current.map(RowSet::description).orElse("absent"))
        .fact("changelog", changelog.map(Changelog::description).orElse("absent"))
        .fact("judged", judgedTables(currentJudged, changelogJudged))
        .fact("semantics", context.semantics().name());
    return judge.verdict(NAME, evidence);
  }

  private static String prefixJudgement(
      CommitConsistency claim, boolean tolerant, boolean snapshotReads, boolean sharded) {
    if (claim == CommitConsistency.PER_KEY) {
      return "PER_KEY: judged key by key";
    }
    if (tolerant) {
      return "per key: the pipeline claims "
          + claim.name()
          + " but delivers at least once, and a replay shows older prefixes again";
    }
    if (snapshotReads) {
      return "per key: the pipeline claims "
          + claim.name()
          + ", but the sink holds snapshot reads, and a snapshot read in chunks shows each chunk"
          + " at its own log position";
    }
    return claim.name()
        + ": every commit judged as one prefix of the source's log"
        + (sharded
            // a shard cannot place a key it does not show against the others' latest change
            ? " (keys judged in shards: a key a commit lacks bounds the prefix from below only, so"
                + " a commit missing a new row is not caught by this judgement)"
            : "");
  }

  private static String judgedTables(boolean current, boolean changelog) {
    if (current && changelog) {
      return "current and changelog";
    }
    return current ? "current only (the changelog keeps no history)" : "changelog only";
  }

  private static long count(Changelog expected) {
    long count = 0;
    try (CloseableIterator<ChangeEvent> events =
        Inputs.guarded(expected.description(), expected::open)) {
      while (events.hasNext()) {
        events.next();
        count++;
      }
    }
    return count;
  }

  private static Map<RowKey, KeyTimeline> timelines(Changelog expected, KeyShard shard) {
    Map<RowKey, KeyTimeline> timelines = new HashMap<>();
    try (CloseableIterator<ChangeEvent> events =
        Inputs.guarded(expected.description(), expected::open)) {
      while (events.hasNext()) {
        ChangeEvent event = events.next();
        if (shard.contains(event.key())) {
          timelines.computeIfAbsent(event.key(), key -> new KeyTimeline()).add(event);
        }
      }
    }
    timelines.values().forEach(KeyTimeline::seal);
    return timelines;
  }
}
