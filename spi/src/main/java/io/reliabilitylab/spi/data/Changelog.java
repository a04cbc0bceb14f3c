package io.reliabilitylab.spi.data;

import static org.apiguardian.api.API.Status.STABLE;

import java.util.List;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * A changelog's envelopes as read at one consistent point, in no particular order: checks order
 * them by {@link SourcePosition} themselves. May be opened more than once.
 */
@API(status = STABLE)
public interface Changelog {

  /** The schema of the row images. */
  TableSchema schema();

  /** Where the events come from, for evidence. */
  String description();

  /** Reads the events; the caller closes the iterator. */
  CloseableIterator<ChangeEvent> open();

  /**
   * Opens the commits that appended this changelog's envelopes, for the keys of {@code shard}, when
   * its store keeps them; empty otherwise. The caller closes the history.
   */
  default Optional<TableHistory<ChangeEvent>> history(KeyShard shard) {
    return Optional.empty();
  }

  /** An in-memory changelog. */
  static Changelog of(TableSchema schema, String description, List<ChangeEvent> events) {
    List<ChangeEvent> copy = List.copyOf(events);
    return new Changelog() {
      @Override
      public TableSchema schema() {
        return schema;
      }

      @Override
      public String description() {
        return description;
      }

      @Override
      public CloseableIterator<ChangeEvent> open() {
        return CloseableIterator.of(copy);
      }
    };
  }
}
