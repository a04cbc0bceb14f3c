package io.reliabilitylab.harness.controls;

import io.reliabilitylab.spi.data.ChangeEvent;
import io.reliabilitylab.spi.data.ChangeOp;
import io.reliabilitylab.spi.data.DeliverySemantics;
import io.reliabilitylab.spi.data.Row;
import io.reliabilitylab.spi.data.RowKey;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * One way a pipeline breaks its output, applied to a faithful {@link PipelineOutput}, with the
 * checks that must catch it: the negative-control matrix. {@code
 * site/src/docs/negative-controls.md} shows the same matrix; {@link NegativeControlMatrixTest}
 * keeps the two equal.
 */
enum Mutation {
  DROP_EVENT(
      "drop one event",
      "changelog",
      Set.of("changelog-completeness", "event-id-audit"),
      Set.of("changelog-completeness", "event-id-audit"),
      Set.of("current-changelog-consistency")) {
    @Override
    List<Candidate> candidates(PipelineOutput out) {
      List<Candidate> candidates = new ArrayList<>();
      for (ChangeEvent event : out.changelog) {
        candidates.add(
            new Candidate(event.key(), event.eventId(), () -> out.changelog.remove(event)));
      }
      return candidates;
    }
  },

  LOSE_EVENT_IN_PIPELINE(
      "drop one event",
      "both tables (current = fold of the changelog)",
      Set.of("changelog-completeness", "event-id-audit"),
      Set.of("changelog-completeness", "event-id-audit"),
      Set.of("snapshot-diff")) {
    @Override
    List<Candidate> candidates(PipelineOutput out) {
      List<Candidate> candidates = new ArrayList<>();
      for (ChangeEvent event : out.changelog) {
        candidates.add(
            new Candidate(
                event.key(),
                event.eventId(),
                () -> {
                  out.changelog.remove(event);
                  out.current.clear();
                  out.current.addAll(out.foldChangelog());
                }));
      }
      return candidates;
    }
  },

  DUPLICATE_EVENT(
      "duplicate one event",
      "changelog",
      Set.of("changelog-completeness", "event-id-audit"),
      Set.of(),
      Set.of()) {
    @Override
    List<Candidate> candidates(PipelineOutput out) {
      List<Candidate> candidates = new ArrayList<>();
      for (ChangeEvent event : out.changelog) {
        candidates.add(new Candidate(event.key(), event.eventId(), () -> out.changelog.add(event)));
      }
      return candidates;
    }
  },

  SWAP_UPDATES(
      "swap two updates of one key",
      "changelog",
      Set.of("changelog-completeness"),
      Set.of("changelog-completeness"),
      Set.of("current-changelog-consistency")) {
    @Override
    List<Candidate> candidates(PipelineOutput out) {
      List<Candidate> candidates = new ArrayList<>();
      for (Map.Entry<RowKey, List<ChangeEvent>> entry : out.eventsByKey().entrySet()) {
        List<ChangeEvent> updates =
            entry.getValue().stream().filter(e -> e.op() == ChangeOp.UPDATE).toList();
        for (int i = 0; i + 1 < updates.size(); i++) {
          ChangeEvent first = updates.get(i);
          ChangeEvent second = updates.get(i + 1);
          candidates.add(
              new Candidate(
                  entry.getKey(),
                  first.eventId(),
                  () -> {
                    out.changelog.set(
                        out.changelog.indexOf(first),
                        PipelineOutput.withPosition(first, second.position(), first.row()));
                    out.changelog.set(
                        out.changelog.indexOf(second),
                        PipelineOutput.withPosition(second, first.position(), second.row()));
                  }));
        }
      }
      return candidates;
    }
  },

  LOSE_DELETE(
      "lose a delete",
      "both tables",
      Set.of("snapshot-diff", "event-id-audit", "changelog-completeness"),
      Set.of("snapshot-diff", "event-id-audit", "changelog-completeness"),
      Set.of()) {
    @Override
    List<Candidate> candidates(PipelineOutput out) {
      return finalDeletes(
          out,
          delete -> {
            out.changelog.remove(delete);
            out.current.add(delete.row().inTable(PipelineOutput.CURRENT));
          });
    }
  },

  LOSE_DELETE_IN_CURRENT(
      "lose a delete",
      "current (equality delete not applied)",
      Set.of("snapshot-diff", "event-id-audit", "current-changelog-consistency"),
      Set.of("snapshot-diff", "event-id-audit", "current-changelog-consistency"),
      Set.of()) {
    @Override
    List<Candidate> candidates(PipelineOutput out) {
      return finalDeletes(
          out, delete -> out.current.add(delete.row().inTable(PipelineOutput.CURRENT)));
    }
  },

  STALE_UPDATE(
      "apply a stale update",
      "current",
      Set.of("snapshot-diff", "event-id-audit", "current-changelog-consistency"),
      Set.of("snapshot-diff", "event-id-audit", "current-changelog-consistency"),
      Set.of()) {
    @Override
    List<Candidate> candidates(PipelineOutput out) {
      List<Candidate> candidates = new ArrayList<>();
      for (Map.Entry<RowKey, List<ChangeEvent>> entry : out.eventsByKey().entrySet()) {
        List<ChangeEvent> events = entry.getValue();
        ChangeEvent last = events.get(events.size() - 1);
        if (last.op() != ChangeOp.UPDATE) {
          continue;
        }
        for (ChangeEvent earlier : events) {
          if (earlier.op() != ChangeOp.DELETE && earlier.eventId() == last.beforeEventId()) {
            candidates.add(
                new Candidate(
                    entry.getKey(),
                    last.eventId(),
                    () -> out.replaceCurrent(earlier.row().inTable(PipelineOutput.CURRENT))));
          }
        }
      }
      return candidates;
    }
  },

  CORRUPT_CURRENT_COLUMN(
      "corrupt one column",
      "current",
      Set.of("snapshot-diff", "current-changelog-consistency"),
      Set.of("snapshot-diff", "current-changelog-consistency"),
      Set.of()) {
    @Override
    List<Candidate> candidates(PipelineOutput out) {
      List<Candidate> candidates = new ArrayList<>();
      for (Row row : List.copyOf(out.current)) {
        long eventId = row.eventId() == null ? -1 : row.eventId();
        candidates.add(
            new Candidate(
                row.key(),
                eventId,
                () ->
                    out.replaceCurrent(
                        row.with("amount_cents", (Long) row.get("amount_cents") + 1))));
      }
      return candidates;
    }
  },

  CORRUPT_EARLIER_CHANGELOG_VERSION(
      "corrupt one column of an earlier version",
      "changelog",
      Set.of("changelog-completeness"),
      Set.of("changelog-completeness"),
      Set.of()) {
    @Override
    List<Candidate> candidates(PipelineOutput out) {
      List<Candidate> candidates = new ArrayList<>();
      for (Map.Entry<RowKey, List<ChangeEvent>> entry : out.eventsByKey().entrySet()) {
        List<ChangeEvent> events = entry.getValue();
        for (int i = 0; i + 1 < events.size(); i++) {
          ChangeEvent earlier = events.get(i);
          if (earlier.op() == ChangeOp.DELETE) {
            continue;
          }
          Row row = earlier.row();
          ChangeEvent corrupted =
              PipelineOutput.withPosition(
                  earlier,
                  earlier.position(),
                  row.with("amount_cents", (Long) row.get("amount_cents") + 1));
          candidates.add(
              new Candidate(
                  entry.getKey(),
                  earlier.eventId(),
                  () -> out.changelog.set(out.changelog.indexOf(earlier), corrupted)));
        }
      }
      return candidates;
    }
  };

  /** Each delete that is the last change of its key, with {@code lose} applied to it. */
  private static List<Candidate> finalDeletes(PipelineOutput out, Consumer<ChangeEvent> lose) {
    List<Candidate> candidates = new ArrayList<>();
    for (Map.Entry<RowKey, List<ChangeEvent>> entry : out.eventsByKey().entrySet()) {
      ChangeEvent last = entry.getValue().get(entry.getValue().size() - 1);
      if (last.op() == ChangeOp.DELETE) {
        candidates.add(new Candidate(entry.getKey(), last.eventId(), () -> lose.accept(last)));
      }
    }
    return candidates;
  }

  /** A place the mutation can break, naming the key and event it affects. */
  record Candidate(RowKey key, long eventId, Runnable apply) {}

  final String mutation;
  final String table;
  final Set<String> mustFailExactlyOnce;
  final Set<String> mustFailAtLeastOnce;
  final Set<String> mayFail;

  Mutation(
      String mutation,
      String table,
      Set<String> mustFailExactlyOnce,
      Set<String> mustFailAtLeastOnce,
      Set<String> mayFail) {
    this.mutation = mutation;
    this.table = table;
    this.mustFailExactlyOnce = mustFailExactlyOnce;
    this.mustFailAtLeastOnce = mustFailAtLeastOnce;
    this.mayFail = mayFail;
  }

  /** The places in {@code out} where this mutation can be applied, in a stable order. */
  abstract List<Candidate> candidates(PipelineOutput out);

  /** The checks that must fail under these semantics; every other check outside mayFail passes. */
  Set<String> mustFail(DeliverySemantics semantics) {
    return semantics == DeliverySemantics.EXACTLY_ONCE ? mustFailExactlyOnce : mustFailAtLeastOnce;
  }
}
