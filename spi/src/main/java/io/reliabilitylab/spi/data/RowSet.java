package io.reliabilitylab.spi.data;

import static org.apiguardian.api.API.Status.STABLE;

import java.util.List;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * A table's rows as read at one consistent point, in no particular order (Iceberg reads are
 * unsorted). May be opened more than once; each {@link #open()} reads it again.
 */
@API(status = STABLE)
public interface RowSet {

  /** The schema every row of this set has. */
  TableSchema schema();

  /** Where the rows come from, for evidence: {@code iceberg lab.orders_current @ snapshot 42}. */
  String description();

  /** Reads the rows; the caller closes the iterator. */
  CloseableIterator<Row> open();

  /**
   * Opens digests of this set computed where its rows live, when it offers them (its key is one
   * integral column and its store can digest key ranges); empty otherwise, and then a comparison
   * reads every row. The caller closes the digests.
   */
  default Optional<KeyRangeDigests> keyRangeDigests() {
    return Optional.empty();
  }

  /**
   * Opens the commits that led to this set's state, for the keys of {@code shard}, when its store
   * keeps them; empty otherwise. The caller closes the history.
   */
  default Optional<TableHistory<Row>> history(KeyShard shard) {
    return Optional.empty();
  }

  /** An in-memory row set. */
  static RowSet of(TableSchema schema, String description, List<Row> rows) {
    List<Row> copy = List.copyOf(rows);
    return new RowSet() {
      @Override
      public TableSchema schema() {
        return schema;
      }

      @Override
      public String description() {
        return description;
      }

      @Override
      public CloseableIterator<Row> open() {
        return CloseableIterator.of(copy);
      }
    };
  }
}
