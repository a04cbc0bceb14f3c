package io.reliabilitylab.spi.data;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.Optional;
import org.apiguardian.api.API;

/**
 * The committed states a table passed through, oldest first, up to the state its {@link RowSet} or
 * {@link Changelog} reads, each as the change from the one before: what every reader of the table
 * could have seen between two commits. Offered by {@link RowSet#history} and {@link
 * Changelog#history} where the store keeps its commits (an Iceberg table's snapshots). Read
 * incrementally: each commit's own files, not the whole table again.
 */
@API(status = EXPERIMENTAL)
public interface TableHistory<T> extends AutoCloseable {

  /**
   * Where the history starts: {@code "the table's first snapshot"}, or the oldest commit still
   * known when older ones were expired (its first commit then adds that whole state).
   */
  String start();

  /** The next commit, or empty after the last. */
  Optional<TableCommit<T>> next();

  @Override
  void close();
}
