package io.reliabilitylab.checks;

import io.reliabilitylab.spi.data.ChangeEvent;
import io.reliabilitylab.spi.data.ChangeOp;

/** The identity of a change envelope in audits: its op and event id. */
record EventIdentity(ChangeOp op, long eventId) implements Comparable<EventIdentity> {

  static EventIdentity of(ChangeEvent event) {
    return new EventIdentity(event.op(), event.eventId());
  }

  /** Orders as {@link io.reliabilitylab.checks.sort.Orderings#eventsByIdentity} does. */
  @Override
  public int compareTo(EventIdentity other) {
    int c = Long.compare(eventId, other.eventId);
    return c != 0 ? c : Integer.compare(op.ordinal(), other.op.ordinal());
  }

  @Override
  public String toString() {
    return op.code() + ":" + eventId;
  }
}
