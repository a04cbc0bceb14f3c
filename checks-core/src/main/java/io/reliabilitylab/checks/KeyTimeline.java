package io.reliabilitylab.checks;

import io.reliabilitylab.spi.data.ChangeEvent;
import io.reliabilitylab.spi.data.ChangeOp;
import io.reliabilitylab.spi.data.Row;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One key's states in the source, in its log order: state 0 is the key absent before its first
 * change, state {@code i} the key after its {@code i}-th change (absent after a delete). A reader
 * of a faithful sink sees, per key, these states and only these, never going back.
 */
final class KeyTimeline {

  private final List<ChangeEvent> events = new ArrayList<>();
  private boolean sorted = true;

  void add(ChangeEvent event) {
    if (!events.isEmpty()
        && events.get(events.size() - 1).position().compareTo(event.position()) > 0) {
      sorted = false;
    }
    events.add(event);
  }

  /** Orders the changes by source position once all are added. */
  void seal() {
    if (!sorted) {
      events.sort(Comparator.comparing(ChangeEvent::position));
      sorted = true;
    }
  }

  /** Whether the source's changes include a snapshot read of the key. */
  boolean hasSnapshotReads() {
    return events.stream().anyMatch(event -> event.op() == ChangeOp.READ);
  }

  /** How many states the key passed through, the absent one before its first change included. */
  int states() {
    return events.size() + 1;
  }

  /** The row of state {@code index}, or null when the key is absent in it. */
  @Nullable Row state(int index) {
    if (index == 0) {
      return null;
    }
    ChangeEvent change = events.get(index - 1);
    return change.op() == ChangeOp.DELETE ? null : change.row();
  }

  /** The change that led to state {@code index} ({@code index >= 1}). */
  ChangeEvent change(int index) {
    return events.get(index - 1);
  }

  /** The first state at or after {@code from} that shows {@code row} (null: absent), or -1. */
  int find(@Nullable Row row, int from) {
    for (int index = Math.max(0, from); index < states(); index++) {
      if (Objects.equals(state(index), row)) {
        return index;
      }
    }
    return -1;
  }

  /**
   * The state an actual envelope brings the key to: the change with its op and event id, or for a
   * snapshot read the state with its event id (a snapshot read folds the changes made while it
   * read: it carries whichever version it found). -1 when the source never wrote it.
   */
  int envelope(ChangeEvent actual) {
    for (int index = 1; index < states(); index++) {
      ChangeEvent change = events.get(index - 1);
      if (change.eventId() != actual.eventId()) {
        continue;
      }
      if (change.op() == actual.op()
          || (actual.op() == ChangeOp.READ && change.op() != ChangeOp.DELETE)) {
        return index;
      }
    }
    return -1;
  }

  /** The change that led to state {@code index}, for evidence: {@code envelope u:42 at …}. */
  String envelopeAt(int index) {
    ChangeEvent change = change(index);
    return "envelope " + change.identity() + " at " + change.position();
  }

  /**
   * A state for evidence: {@code the row of u:42 at mysql-bin.000001:1234#0}, {@code the key
   * deleted by d:42 at …}, or {@code the key absent, as before its first change}. The position's
   * offset is the source transaction's.
   */
  String describe(int index) {
    if (index == 0) {
      return "the key absent, as before its first change";
    }
    ChangeEvent change = change(index);
    return (change.op() == ChangeOp.DELETE ? "the key deleted by " : "the row of ")
        + change.identity()
        + " at "
        + change.position();
  }
}
