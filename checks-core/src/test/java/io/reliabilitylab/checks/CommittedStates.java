package io.reliabilitylab.checks;

import io.reliabilitylab.spi.data.ChangeEvent;
import io.reliabilitylab.spi.data.Changelog;
import io.reliabilitylab.spi.data.CloseableIterator;
import io.reliabilitylab.spi.data.KeyShard;
import io.reliabilitylab.spi.data.Row;
import io.reliabilitylab.spi.data.RowKey;
import io.reliabilitylab.spi.data.RowSet;
import io.reliabilitylab.spi.data.TableCommit;
import io.reliabilitylab.spi.data.TableHistory;
import io.reliabilitylab.spi.data.TableSchema;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * A table's committed states in memory, offered as a {@link RowSet} or {@link Changelog} at the
 * last state with its {@linkplain RowSet#history history}: each commit as the multiset difference
 * from the state before, as an Iceberg table's history reads.
 */
final class CommittedStates {

  private CommittedStates() {}

  static RowSet rows(String description, List<List<Row>> states) {
    List<Row> last = states.isEmpty() ? List.of() : states.get(states.size() - 1);
    return new RowSet() {
      @Override
      public TableSchema schema() {
        return Fixture.SCHEMA;
      }

      @Override
      public String description() {
        return description;
      }

      @Override
      public CloseableIterator<Row> open() {
        return CloseableIterator.of(last);
      }

      @Override
      public Optional<TableHistory<Row>> history(KeyShard shard) {
        return Optional.of(commits(states, Row::key, shard));
      }
    };
  }

  static Changelog changelog(String description, List<List<ChangeEvent>> states) {
    List<ChangeEvent> last = states.isEmpty() ? List.of() : states.get(states.size() - 1);
    return new Changelog() {
      @Override
      public TableSchema schema() {
        return Fixture.SCHEMA;
      }

      @Override
      public String description() {
        return description;
      }

      @Override
      public CloseableIterator<ChangeEvent> open() {
        return CloseableIterator.of(last);
      }

      @Override
      public Optional<TableHistory<ChangeEvent>> history(KeyShard shard) {
        return Optional.of(commits(states, ChangeEvent::key, shard));
      }
    };
  }

  private static <T> TableHistory<T> commits(
      List<List<T>> states, Function<T, RowKey> keyOf, KeyShard shard) {
    Iterator<List<T>> next = states.iterator();
    return new TableHistory<>() {
      private List<T> before = List.of();
      private int snapshot;

      @Override
      public String start() {
        return "the table's first snapshot";
      }

      @Override
      public Optional<TableCommit<T>> next() {
        if (!next.hasNext()) {
          return Optional.empty();
        }
        List<T> after = next.next();
        List<T> removed = new ArrayList<>(before);
        List<T> added = new ArrayList<>();
        for (T value : after) {
          if (!removed.remove(value)) {
            added.add(value);
          }
        }
        before = after;
        snapshot++;
        return Optional.of(
            new TableCommit<>(
                "snapshot " + snapshot,
                removed.stream().filter(v -> shard.contains(keyOf.apply(v))).toList(),
                added.stream().filter(v -> shard.contains(keyOf.apply(v))).toList()));
      }

      @Override
      public void close() {}
    };
  }
}
