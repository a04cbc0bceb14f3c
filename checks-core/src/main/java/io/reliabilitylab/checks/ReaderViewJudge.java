package io.reliabilitylab.checks;

import io.reliabilitylab.spi.check.CheckResult;
import io.reliabilitylab.spi.check.Evidence;
import io.reliabilitylab.spi.check.EvidenceSample;
import io.reliabilitylab.spi.data.ChangeEvent;
import io.reliabilitylab.spi.data.ChangeOp;
import io.reliabilitylab.spi.data.Row;
import io.reliabilitylab.spi.data.RowKey;
import io.reliabilitylab.spi.data.TableCommit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.jspecify.annotations.Nullable;

/**
 * The reader's-view verdicts of {@link ReaderViewCheck}: per key, the state each commit shows
 * against the key's {@link KeyTimeline}, counted by kind with samples.
 */
final class ReaderViewJudge {

  private static final List<String> KINDS =
      List.of(
          "phantom",
          "duplicate_key",
          "vanished",
          "resurrected",
          "rolled_back",
          "gap",
          "unknown_envelope",
          "duplicate_envelope",
          "retracted");

  private final boolean tolerant;
  private final Evidence.Builder evidence;
  private final Map<String, Long> violations = new LinkedHashMap<>();
  private final Set<String> commitsWithViolations = new LinkedHashSet<>();
  private long tolerated;
  private boolean sawSnapshotReads;
  private long currentCommits;
  private long changelogCommits;

  ReaderViewJudge(boolean tolerant, Evidence.Builder evidence) {
    this.tolerant = tolerant;
    this.evidence = evidence;
    KINDS.forEach(kind -> violations.put(kind, 0L));
  }

  /** The current table's commits of one shard; {@code cut} judges each as a prefix, if claimed. */
  CurrentTable currentTable(Map<RowKey, KeyTimeline> timelines, PrefixCut.@Nullable Pass cut) {
    return new CurrentTable(timelines, cut);
  }

  /** The changelog's commits of one shard; {@code cut} judges each as a prefix, if claimed. */
  ChangelogTable changelogTable(Map<RowKey, KeyTimeline> timelines, PrefixCut.@Nullable Pass cut) {
    return new ChangelogTable(timelines, cut);
  }

  /** Whether a changelog commit showed a snapshot read. */
  boolean sawSnapshotReads() {
    return sawSnapshotReads;
  }

  /** Counts the commits a prefix claim failed in, with samples. */
  void prefixViolations(String kind, List<PrefixCut.Violation> found) {
    violations.putIfAbsent(kind, 0L);
    for (PrefixCut.Violation violation : found) {
      violation(
          kind, violation.commit(), EvidenceSample.of(kind, violation.subject(), violation.note()));
    }
  }

  /** The current table: per key, the rows visible and the source state they matched last. */
  final class CurrentTable {
    private final Map<RowKey, KeyTimeline> timelines;
    private final Map<RowKey, List<Row>> visible = new HashMap<>();
    private final Map<RowKey, Integer> reached = new HashMap<>();
    private final PrefixCut.@Nullable Pass cut;

    private CurrentTable(Map<RowKey, KeyTimeline> timelines, PrefixCut.@Nullable Pass cut) {
      this.timelines = timelines;
      this.cut = cut;
    }

    void apply(TableCommit<Row> commit, boolean countCommit) {
      if (countCommit) {
        currentCommits++;
      }
      Map<RowKey, Row> touched = new TreeMap<>();
      for (Row row : commit.removed()) {
        List<Row> rows = visible.get(row.key());
        if (rows != null) {
          rows.remove(row);
          if (rows.isEmpty()) {
            visible.remove(row.key());
          }
        }
        touched.put(row.key(), row);
      }
      for (Row row : commit.added()) {
        visible.computeIfAbsent(row.key(), key -> new ArrayList<>(1)).add(row);
        touched.put(row.key(), row);
      }
      touched.forEach((key, any) -> judge(commit.description(), key, any));
      if (cut != null) {
        touched.keySet().forEach(key -> cut.shows(key, reached.getOrDefault(key, 0)));
        cut.commitEnded(commit.description());
      }
    }

    private void judge(String commit, RowKey key, Row any) {
      List<Row> rows = visible.getOrDefault(key, List.of());
      String subject = Inputs.subject(any);
      if (rows.size() > 1) {
        violation(
            "duplicate_key",
            commit,
            EvidenceSample.builder("duplicate_key", subject)
                .actual(rows.get(0).toCanonicalMap())
                .note(commit + " shows " + rows.size() + " rows for the key: " + eventIds(rows))
                .build());
        return;
      }
      @Nullable Row shown = rows.isEmpty() ? null : rows.get(0);
      KeyTimeline timeline = timelines.get(key);
      int from = reached.getOrDefault(key, 0);
      int state = timeline == null ? (shown == null ? 0 : -1) : timeline.find(shown, from);
      if (state >= 0) {
        reached.put(key, state);
        return;
      }
      int earlier = timeline == null ? -1 : timeline.find(shown, 0);
      if (earlier < 0) {
        violation(
            "phantom",
            commit,
            EvidenceSample.builder("phantom", subject)
                .actual(shown == null ? Map.of() : shown.toCanonicalMap())
                .note(
                    commit
                        + " shows "
                        + (shown == null ? "the key absent" : "event " + shown.eventId())
                        + ", a state the source never held for the key")
                .build());
        return;
      }
      Row before = timeline.state(from);
      String kind = shown == null ? "vanished" : before == null ? "resurrected" : "rolled_back";
      // A replay re-applies the source's changes in order: it can show an older version, or the
      // key absent again only by replaying one of its deletes (never the absence before its
      // first change).
      int deleted = timeline.find(null, 1);
      boolean replayable = shown != null || (deleted > 0 && deleted < from);
      replayable(
          replayable,
          kind,
          commit,
          EvidenceSample.builder(kind, subject)
              .expected(before == null ? Map.of() : before.toCanonicalMap())
              .actual(shown == null ? Map.of() : shown.toCanonicalMap())
              .note(
                  commit
                      + " shows "
                      + timeline.describe(earlier)
                      + ", after an earlier commit showed "
                      + timeline.describe(from))
              .build());
    }
  }

  /** The changelog table: per key, how many times each of its source changes is visible. */
  final class ChangelogTable {
    private final Map<RowKey, KeyTimeline> timelines;
    private final Map<RowKey, TreeMap<Integer, Integer>> visible = new HashMap<>();
    private final Map<RowKey, Integer> readStates = new HashMap<>();
    private final PrefixCut.@Nullable Pass cut;

    private ChangelogTable(Map<RowKey, KeyTimeline> timelines, PrefixCut.@Nullable Pass cut) {
      this.timelines = timelines;
      this.cut = cut;
    }

    void apply(TableCommit<ChangeEvent> commit, boolean countCommit) {
      if (countCommit) {
        changelogCommits++;
      }
      String at = commit.description();
      Map<RowKey, Set<Integer>> removed = new TreeMap<>();
      Map<RowKey, Set<Integer>> added = new TreeMap<>();
      Map<RowKey, ChangeEvent> anyOf = new HashMap<>();
      for (ChangeEvent event : commit.removed()) {
        int state = stateOf(event);
        TreeMap<Integer, Integer> counts = visible.get(event.key());
        if (state > 0 && counts != null && counts.containsKey(state)) {
          if (counts.merge(state, -1, Integer::sum) == 0) {
            counts.remove(state);
          }
          removed.computeIfAbsent(event.key(), key -> new TreeSet<>()).add(state);
          anyOf.put(event.key(), event);
        }
      }
      for (ChangeEvent event : commit.added()) {
        int state = stateOf(event);
        if (state < 0) {
          violation(
              "unknown_envelope",
              at,
              EvidenceSample.of(
                  "unknown_envelope",
                  Inputs.subject(event.row()),
                  at
                      + " shows envelope "
                      + event.identity()
                      + ", which the source never wrote for the key"));
          continue;
        }
        if (event.op() == ChangeOp.READ) {
          readStates.putIfAbsent(event.key(), state);
          sawSnapshotReads = true;
        }
        visible.computeIfAbsent(event.key(), key -> new TreeMap<>()).merge(state, 1, Integer::sum);
        added.computeIfAbsent(event.key(), key -> new TreeSet<>()).add(state);
        anyOf.put(event.key(), event);
      }
      removed.forEach((key, states) -> retracted(at, key, anyOf.get(key), states));
      added.forEach((key, states) -> judgeAdded(at, key, anyOf.get(key), states));
      if (cut != null) {
        // A key's changelog shows the prefix up to its latest visible envelope.
        for (RowKey key : anyOf.keySet()) {
          TreeMap<Integer, Integer> counts = visible.get(key);
          cut.shows(key, counts == null || counts.isEmpty() ? 0 : counts.lastKey());
        }
        cut.commitEnded(at);
      }
    }

    private int stateOf(ChangeEvent event) {
      KeyTimeline timeline = timelines.get(event.key());
      return timeline == null ? -1 : timeline.envelope(event);
    }

    /** Envelopes a commit took away that no commit put back (a rewrite puts its rows back). */
    private void retracted(String at, RowKey key, ChangeEvent any, Set<Integer> states) {
      TreeMap<Integer, Integer> counts = visible.getOrDefault(key, new TreeMap<>());
      for (int state : states) {
        if (!counts.containsKey(state)) {
          violation(
              "retracted",
              at,
              EvidenceSample.of(
                  "retracted",
                  Inputs.subject(any.row()),
                  at
                      + " no longer shows "
                      + timelines.get(key).envelopeAt(state)
                      + ", which an earlier commit showed"));
        }
      }
    }

    /**
     * The envelopes a commit added must extend the key's visible run without a hole, from its first
     * change or from a snapshot read (which may carry any version: it folds the changes made while
     * it read), and must not be visible twice.
     */
    private void judgeAdded(String at, RowKey key, ChangeEvent any, Set<Integer> states) {
      KeyTimeline timeline = timelines.get(key);
      TreeMap<Integer, Integer> counts = visible.get(key);
      String subject = Inputs.subject(any.row());
      for (int state : states) {
        if (counts.get(state) > 1) {
          replayable(
              true,
              "duplicate_envelope",
              at,
              EvidenceSample.of(
                  "duplicate_envelope",
                  subject,
                  at
                      + " shows "
                      + timeline.envelopeAt(state)
                      + " "
                      + counts.get(state)
                      + " times"));
        }
      }
      int first = counts.firstKey();
      int start = readStates.getOrDefault(key, -1) == first ? first : 1;
      int last = ((TreeSet<Integer>) states).last();
      for (int state = start; state < last; state++) {
        if (!counts.containsKey(state)) {
          violation(
              "gap",
              at,
              EvidenceSample.of(
                  "gap",
                  subject,
                  at
                      + " shows "
                      + timeline.envelopeAt(last)
                      + " but not "
                      + timeline.envelopeAt(state)
                      + ", which precedes it in the source"));
          return;
        }
      }
    }
  }

  private void violation(String kind, String commit, EvidenceSample sample) {
    replayable(false, kind, commit, sample);
  }

  /** A violation that at-least-once tolerates when a replay of the source's changes explains it. */
  private void replayable(boolean replayable, String kind, String commit, EvidenceSample sample) {
    if (tolerant && replayable) {
      tolerated++;
      return;
    }
    violations.merge(kind, 1L, Long::sum);
    commitsWithViolations.add(commit);
    evidence.sample(sample);
  }

  private static String eventIds(List<Row> rows) {
    List<String> ids = new ArrayList<>();
    rows.forEach(row -> ids.add(String.valueOf(row.eventId())));
    return "event ids " + String.join(", ", ids);
  }

  CheckResult verdict(String check, Evidence.Builder evidence) {
    violations.forEach(evidence::count);
    long total = violations.values().stream().mapToLong(Long::longValue).sum();
    evidence
        .count("current_commits", currentCommits)
        .count("changelog_commits", changelogCommits)
        .count("violations", total)
        .count("tolerated", tolerated)
        .count("commits_with_violations", commitsWithViolations.size());
    String judged =
        currentCommits
            + " commits of the current table and "
            + changelogCommits
            + " of the changelog";
    if (total == 0) {
      return CheckResult.passed(
          check,
          "every state readers saw in "
              + judged
              + " is one the source held, per key and in order"
              + (tolerated > 0 ? " (" + tolerated + " replayed states tolerated)" : ""),
          evidence.build());
    }
    List<String> kinds = new ArrayList<>();
    violations.forEach(
        (kind, count) -> {
          if (count > 0) {
            kinds.add(count + " " + kind);
          }
        });
    // the commits counted are both tables' together
    return CheckResult.failed(
        check,
        commitsWithViolations.size()
            + " of "
            + (currentCommits + changelogCommits)
            + " commits ("
            + judged
            + ") showed readers a state the source never held, key by key or as a whole: "
            + String.join(", ", kinds),
        evidence.build());
  }
}
