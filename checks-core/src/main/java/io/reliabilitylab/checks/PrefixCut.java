package io.reliabilitylab.checks;

import io.reliabilitylab.spi.data.CommitConsistency;
import io.reliabilitylab.spi.data.RowKey;
import io.reliabilitylab.spi.data.SourcePosition;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * Whether each commit of one sink table shows the source at a single prefix of its log, as a
 * pipeline claiming {@link CommitConsistency#CHANGE_PREFIX} or {@link
 * CommitConsistency#TRANSACTION_PREFIX} promises: per key, the state a commit shows held only
 * between the change that made it and the key's next change, so the prefixes it allows form an
 * interval; a commit is a prefix iff the intervals of all keys meet (the latest change any key
 * shows precedes the earliest change any key still lacks). Changes are placed by transaction (their
 * position's log and offset): the order of one transaction's changes to different keys is the
 * database's, which the expected changes need not know (a writer may send a transaction's inserts
 * in one statement). So a change prefix may hold any part of its last transaction, and a
 * transaction prefix none: a state inside a transaction allows no transaction prefix at all.
 *
 * <p>Keys are judged in shards, one {@link Pass} per shard and table; each pass reports, per
 * commit, its keys' latest shown change and earliest missing one, and {@link #violations()} meets
 * them across shards. Memory: one bound per key of the shard, two per commit.
 */
final class PrefixCut {

  private final CommitConsistency claim;
  private final boolean sharded;
  private final List<Ends> commits = new ArrayList<>();

  /**
   * {@code sharded}: keys are judged in more than one shard, so an absent key cannot be placed
   * against the latest change the other shards show; it then bounds the prefix from below only.
   */
  PrefixCut(CommitConsistency claim, boolean sharded) {
    if (claim == CommitConsistency.PER_KEY) {
      throw new IllegalArgumentException("A per-key claim promises no prefix");
    }
    this.claim = claim;
    this.sharded = sharded;
  }

  /**
   * A pass over one shard's keys, all starting absent (state 0). In a table of rows ({@code rows})
   * an absent key is ambiguous: it may be absent because it was deleted, or because it lived and
   * died between two commits; a changelog shows each of its envelopes.
   */
  Pass pass(Map<RowKey, KeyTimeline> timelines, boolean rows) {
    return new Pass(timelines, rows);
  }

  /** The commits that allowed no prefix, as evidence lines, in commit order. */
  List<Violation> violations() {
    List<Violation> found = new ArrayList<>();
    for (Ends ends : commits) {
      if (ends.latest != null
          && ends.earliestMissing != null
          && ends.latest.compareTo(ends.earliestMissing) >= 0) {
        found.add(
            new Violation(
                ends.commit,
                ends.latestSubject,
                ends.commit
                    + " shows "
                    + ends.latestSubject
                    + " at "
                    + ends.latestState
                    + " but "
                    + ends.earliestSubject
                    + " still before "
                    + ends.earliestMissingChange
                    + ": "
                    + (claim == CommitConsistency.TRANSACTION_PREFIX
                        ? "no prefix of the source's transactions holds both (a torn transaction)"
                        : "no prefix of the source's change log holds both")));
      }
    }
    return found;
  }

  /** How many commits were judged. */
  int commits() {
    return commits.size();
  }

  /** One commit that allowed no prefix: where, which key, and why. */
  record Violation(String commit, String subject, String note) {}

  /** The keys of one shard in one table's history. */
  final class Pass {
    private final Map<RowKey, KeyTimeline> timelines;
    private final Map<RowKey, SourcePosition> lows = new HashMap<>();
    private final Map<RowKey, SourcePosition> highs = new HashMap<>();
    private final TreeMap<SourcePosition, Set<RowKey>> byLow = new TreeMap<>();
    private final TreeMap<SourcePosition, Set<RowKey>> byHigh = new TreeMap<>();
    private final Map<RowKey, Integer> states = new HashMap<>();
    private final boolean rows;
    private int commit;

    private Pass(Map<RowKey, KeyTimeline> timelines, boolean rows) {
      this.timelines = timelines;
      this.rows = rows;
      timelines.keySet().forEach(key -> shows(key, 0));
    }

    /**
     * Key {@code key} now shows state {@code state} of its timeline; a negative state (a key the
     * pass cannot place, read by a snapshot) lifts its bounds.
     */
    void shows(RowKey key, int state) {
      KeyTimeline timeline = timelines.get(key);
      if (timeline == null) {
        return;
      }
      remove(lows, byLow, key);
      remove(highs, byHigh, key);
      states.put(key, state);
      if (state < 0) {
        return;
      }
      if (state > 0) {
        add(lows, byLow, key, low(timeline.change(state).position()));
      }
      boolean soft = rows && sharded && timeline.state(state) == null;
      if (state + 1 < timeline.states() && !soft) {
        add(highs, byHigh, key, high(timeline.change(state + 1).position()));
      }
    }

    /** The commit {@code description} is applied: its ends are met with other shards'. */
    void commitEnded(String description) {
      placeAbsentKeys();
      if (commits.size() <= commit) {
        commits.add(new Ends(description));
      }
      Ends ends = commits.get(commit++);
      if (!byLow.isEmpty()) {
        SourcePosition latest = byLow.lastKey();
        if (ends.latest == null || latest.compareTo(ends.latest) > 0) {
          RowKey key = byLow.lastEntry().getValue().iterator().next();
          KeyTimeline timeline = timelines.get(key);
          int state = states.get(key);
          ends.latest = latest;
          ends.latestSubject = Inputs.subject(timeline.change(state).row());
          ends.latestState = timeline.describe(state);
        }
      }
      if (!byHigh.isEmpty()) {
        SourcePosition earliest = byHigh.firstKey();
        if (ends.earliestMissing == null || earliest.compareTo(ends.earliestMissing) < 0) {
          RowKey key = byHigh.firstEntry().getValue().iterator().next();
          KeyTimeline timeline = timelines.get(key);
          int state = states.get(key);
          ends.earliestMissing = earliest;
          ends.earliestSubject = Inputs.subject(timeline.change(state + 1).row());
          ends.earliestMissingChange = timeline.envelopeAt(state + 1);
        }
      }
    }

    /**
     * While the earliest missing change is that of a key the rows show absent, moves the key to a
     * later absent state if one still holds after the latest change shown: the key may have lived
     * and died unseen between commits (failing that, to the last absent state begun by then, whose
     * next change is the one it lacks). States only move forward, so the work is bounded by the
     * keys' changes.
     */
    private void placeAbsentKeys() {
      if (!rows) {
        return;
      }
      while (!byLow.isEmpty()
          && !byHigh.isEmpty()
          && byLow.lastKey().compareTo(byHigh.firstKey()) >= 0) {
        SourcePosition latest = byLow.lastKey();
        RowKey moved = null;
        for (RowKey key : byHigh.firstEntry().getValue()) {
          KeyTimeline timeline = timelines.get(key);
          int state = states.get(key);
          if (timeline.state(state) == null) {
            int later = laterAbsentState(timeline, state, latest);
            if (later < 0) {
              // no placement helps: the evidence names the change the key lacks nearest the cut
              later = lastAbsentStateBefore(timeline, state, latest);
            }
            if (later > state) {
              moved = key;
              shows(key, later);
              break;
            }
          }
        }
        if (moved == null) {
          return;
        }
      }
    }

    /** The first absent state after {@code state} that lasts beyond {@code latest}, or -1. */
    private int laterAbsentState(KeyTimeline timeline, int state, SourcePosition latest) {
      for (int next = state + 1; next < timeline.states(); next++) {
        if (timeline.state(next) == null
            && (next + 1 == timeline.states()
                || high(timeline.change(next + 1).position()).compareTo(latest) > 0)) {
          return next;
        }
      }
      return -1;
    }

    /** The last absent state after {@code state} that begins before {@code latest}, or -1. */
    private int lastAbsentStateBefore(KeyTimeline timeline, int state, SourcePosition latest) {
      for (int next = timeline.states() - 1; next > state; next--) {
        if (timeline.state(next) == null
            && low(timeline.change(next).position()).compareTo(latest) <= 0) {
          return next;
        }
      }
      return -1;
    }

    private SourcePosition low(SourcePosition change) {
      // The prefix must hold the change: for transactions the whole of its transaction, for
      // changes at least the start of it (the order of one transaction's changes to different
      // keys is the database's, which the expected changes need not know).
      return claim == CommitConsistency.TRANSACTION_PREFIX
          ? new SourcePosition(change.log(), change.offset(), Integer.MAX_VALUE, null)
          : new SourcePosition(change.log(), change.offset(), 0, null);
    }

    private SourcePosition high(SourcePosition change) {
      // The prefix must end before the change: for transactions before its transaction, for
      // changes before the end of it (any part of the last transaction may be held).
      return claim == CommitConsistency.TRANSACTION_PREFIX
          ? new SourcePosition(change.log(), change.offset(), 0, null)
          : new SourcePosition(change.log(), change.offset(), Integer.MAX_VALUE, null);
    }

    private static void add(
        Map<RowKey, SourcePosition> bounds,
        TreeMap<SourcePosition, Set<RowKey>> index,
        RowKey key,
        SourcePosition bound) {
      bounds.put(key, bound);
      index.computeIfAbsent(bound, any -> new HashSet<>(2)).add(key);
    }

    private static void remove(
        Map<RowKey, SourcePosition> bounds,
        TreeMap<SourcePosition, Set<RowKey>> index,
        RowKey key) {
      SourcePosition bound = bounds.remove(key);
      if (bound != null) {
        Set<RowKey> keys = index.get(bound);
        keys.remove(key);
        if (keys.isEmpty()) {
          index.remove(bound);
        }
      }
    }
  }

  /** One commit's ends, met across shards. */
  private static final class Ends {
    private final String commit;
    private @Nullable SourcePosition latest;
    private String latestSubject = "";
    private String latestState = "";
    private @Nullable SourcePosition earliestMissing;
    private String earliestSubject = "";
    private String earliestMissingChange = "";

    private Ends(String commit) {
      this.commit = commit;
    }
  }
}
