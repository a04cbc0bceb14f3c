package io.reliabilitylab.checks;

import io.reliabilitylab.checks.sort.Orderings;
import io.reliabilitylab.spi.data.ChangeEvent;
import io.reliabilitylab.spi.data.Row;
import java.util.Iterator;
import java.util.NoSuchElementException;
import org.jspecify.annotations.Nullable;

/**
 * The rows a changelog leaves behind: per key, in source position order, {@code r}, {@code c} and
 * {@code u} set the row image and {@code d} removes it. An identical duplicate sets the same image
 * again, so replay is idempotent. Reads events sorted by key then position, yields rows in key
 * order and holds one row at a time.
 */
final class ChangelogFold implements Iterator<Row> {

  private final Peeking<ChangeEvent> events;
  private final int[] keys;
  private @Nullable Row next;

  ChangelogFold(Peeking<ChangeEvent> events, int[] keys) {
    this.events = events;
    this.keys = keys;
  }

  @Override
  public boolean hasNext() {
    while (next == null && events.hasNext()) {
      next = foldOneKey();
    }
    return next != null;
  }

  @Override
  public Row next() {
    if (!hasNext()) {
      throw new NoSuchElementException();
    }
    Row row = next;
    next = null;
    return row;
  }

  private @Nullable Row foldOneKey() {
    ChangeEvent first = events.next();
    Row state = apply(first);
    ChangeEvent event;
    while ((event = events.peek()) != null && Orderings.sameKey(first.row(), event.row(), keys)) {
      state = apply(events.next());
    }
    return state;
  }

  private static @Nullable Row apply(ChangeEvent event) {
    return switch (event.op()) {
      case READ, CREATE, UPDATE -> event.row();
      case DELETE -> null;
    };
  }
}
