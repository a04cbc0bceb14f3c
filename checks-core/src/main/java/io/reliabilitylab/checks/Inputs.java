package io.reliabilitylab.checks;

import io.reliabilitylab.checks.sort.ChangeEventCodec;
import io.reliabilitylab.checks.sort.ExternalSorter;
import io.reliabilitylab.checks.sort.RowCodec;
import io.reliabilitylab.spi.check.CheckContext;
import io.reliabilitylab.spi.data.CanonicalForm;
import io.reliabilitylab.spi.data.ChangeEvent;
import io.reliabilitylab.spi.data.Changelog;
import io.reliabilitylab.spi.data.CloseableIterator;
import io.reliabilitylab.spi.data.Column;
import io.reliabilitylab.spi.data.Row;
import io.reliabilitylab.spi.data.RowSet;
import io.reliabilitylab.spi.data.TableSchema;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Optional;
import java.util.StringJoiner;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/** Reading, sorting and naming the inputs of a check. */
final class Inputs {

  private Inputs() {}

  /**
   * The rows of a set, sorted with bounded memory. {@code share} is how many sorted streams the
   * check holds open at once: each gets that share of {@link CheckContext#maxRowsInMemory()}.
   */
  static Peeking<Row> sortedRows(
      RowSet rows, Comparator<Row> order, CheckContext context, int share) {
    ExternalSorter<Row> sorter =
        ExternalSorter.of(
            RowCodec.of(rows.schema()), order, budget(context, share), context.workDirectory());
    try (CloseableIterator<Row> input = guarded(rows.description(), rows::open)) {
      return Peeking.of(sorter.sort(input));
    }
  }

  /** The events of a changelog that pass a filter, sorted with bounded memory. */
  static Peeking<ChangeEvent> sortedEvents(
      Changelog changelog,
      Predicate<ChangeEvent> filter,
      Comparator<ChangeEvent> order,
      CheckContext context,
      int share) {
    ExternalSorter<ChangeEvent> sorter =
        ExternalSorter.of(
            ChangeEventCodec.of(changelog.schema()),
            order,
            budget(context, share),
            context.workDirectory());
    try (CloseableIterator<ChangeEvent> input = guarded(changelog.description(), changelog::open)) {
      return Peeking.of(sorter.sort(filtered(input, filter)));
    }
  }

  private static int budget(CheckContext context, int share) {
    return Math.max(1, context.maxRowsInMemory() / share);
  }

  /** Opens an input so that any failure reading it names the input. */
  static <T> CloseableIterator<T> guarded(String source, Supplier<CloseableIterator<T>> opener) {
    CloseableIterator<T> delegate;
    try {
      delegate = opener.get();
    } catch (RuntimeException e) {
      throw new InputReadException(source, e);
    }
    return new CloseableIterator<>() {
      @Override
      public boolean hasNext() {
        try {
          return delegate.hasNext();
        } catch (RuntimeException e) {
          throw new InputReadException(source, e);
        }
      }

      @Override
      public T next() {
        try {
          return delegate.next();
        } catch (RuntimeException e) {
          throw new InputReadException(source, e);
        }
      }

      @Override
      public void close() {
        try {
          delegate.close();
        } catch (RuntimeException e) {
          throw new InputReadException(source, e);
        }
      }
    };
  }

  private static <T> Iterator<T> filtered(Iterator<T> input, Predicate<T> filter) {
    return new Iterator<>() {
      private @Nullable T next;

      @Override
      public boolean hasNext() {
        while (next == null && input.hasNext()) {
          T candidate = input.next();
          if (filter.test(candidate)) {
            next = candidate;
          }
        }
        return next != null;
      }

      @Override
      public T next() {
        if (!hasNext()) {
          throw new NoSuchElementException();
        }
        T value = next;
        next = null;
        return value;
      }
    };
  }

  /** The evidence subject of a row: its key columns and values, e.g. {@code order_id=42}. */
  static String subject(Row row) {
    TableSchema schema = row.schema();
    StringJoiner joiner = new StringJoiner(",");
    for (int index : schema.keyIndexes()) {
      joiner.add(schema.columns().get(index).name() + "=" + CanonicalForm.value(row.get(index)));
    }
    return joiner.toString();
  }

  /**
   * Why rows of two schemas cannot be compared, or empty when their columns and keys agree (table
   * names may differ: the source table and its Iceberg mirror).
   */
  static Optional<String> incomparable(TableSchema expected, TableSchema actual) {
    if (expected.columns().equals(actual.columns())
        && expected.keyColumns().equals(actual.keyColumns())) {
      return Optional.empty();
    }
    List<String> problems = new ArrayList<>();
    List<String> onlyExpected = new ArrayList<>();
    List<String> typeDiffers = new ArrayList<>();
    for (Column column : expected.columns()) {
      Optional<Column> other =
          actual.columns().stream().filter(c -> c.name().equals(column.name())).findFirst();
      if (other.isEmpty()) {
        onlyExpected.add(column.name());
      } else if (other.get().type() != column.type()) {
        typeDiffers.add(column.name() + " " + column.type() + " vs " + other.get().type());
      }
    }
    List<String> onlyActual = new ArrayList<>();
    for (Column column : actual.columns()) {
      if (expected.columns().stream().noneMatch(c -> c.name().equals(column.name()))) {
        onlyActual.add(column.name());
      }
    }
    if (!onlyExpected.isEmpty()) {
      problems.add("columns only in " + expected.name() + ": " + onlyExpected);
    }
    if (!onlyActual.isEmpty()) {
      problems.add("columns only in " + actual.name() + ": " + onlyActual);
    }
    if (!typeDiffers.isEmpty()) {
      problems.add("column types differ: " + typeDiffers);
    }
    if (problems.isEmpty() && !expected.columns().equals(actual.columns())) {
      problems.add(
          "column order differs: "
              + expected.columns().stream().map(Column::name).toList()
              + " vs "
              + actual.columns().stream().map(Column::name).toList());
    }
    if (!expected.keyColumns().equals(actual.keyColumns())) {
      problems.add("key columns differ: " + expected.keyColumns() + " vs " + actual.keyColumns());
    }
    return Optional.of(
        "the schemas of "
            + expected.name()
            + " and "
            + actual.name()
            + " differ, so their rows cannot be compared ("
            + String.join("; ", problems)
            + ")");
  }
}
