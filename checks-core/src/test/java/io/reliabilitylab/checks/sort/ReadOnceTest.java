package io.reliabilitylab.checks.sort;

import static org.assertj.core.api.Assertions.assertThat;

import io.reliabilitylab.spi.data.CloseableIterator;
import io.reliabilitylab.spi.data.Row;
import io.reliabilitylab.spi.data.RowSet;
import io.reliabilitylab.spi.data.TableSchema;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReadOnceTest {

  private static final TableSchema SCHEMA = RowCodecProperties.ALL_TYPES;

  @TempDir Path directory;

  private final List<Row> rows =
      List.of(
          row("a", 1, Instant.parse("2026-12-03T18:00:00.123456Z")),
          row("b", 2, null),
          row("c", 3, Instant.EPOCH));
  private final AtomicInteger storeReads = new AtomicInteger();
  private final RowSet store =
      new RowSet() {
        @Override
        public TableSchema schema() {
          return SCHEMA;
        }

        @Override
        public String description() {
          return "iceberg lab.orders_current @ snapshot 42";
        }

        @Override
        public CloseableIterator<Row> open() {
          storeReads.incrementAndGet();
          return CloseableIterator.of(rows);
        }
      };

  @Test
  void aCompleteReadIsCopiedAndEveryLaterReadComesFromTheCopy() {
    try (ReadOnce.Copies copies = new ReadOnce.Copies(directory.resolve("inputs"))) {
      RowSet once = ReadOnce.rows(store, copies);

      assertThat(readAll(once)).isEqualTo(rows);
      assertThat(readAll(once)).isEqualTo(rows);
      assertThat(readAll(once)).isEqualTo(rows);
      assertThat(storeReads).hasValue(1);
      assertThat(once.description()).isEqualTo(store.description());
    }
  }

  @Test
  void aReadClosedBeforeItsEndLeavesNoCopyAndTheNextReadGoesToTheStore() {
    try (ReadOnce.Copies copies = new ReadOnce.Copies(directory.resolve("inputs"))) {
      RowSet once = ReadOnce.rows(store, copies);
      try (CloseableIterator<Row> partial = once.open()) {
        partial.next();
      }

      assertThat(readAll(once)).isEqualTo(rows);
      assertThat(readAll(once)).isEqualTo(rows);
      assertThat(storeReads).hasValue(2);
    }
  }

  @Test
  void aSecondReaderWhileTheFirstCopiesReadsTheStoreAndTheCopiesAreGoneOnClose()
      throws IOException {
    Path inputs = directory.resolve("inputs");
    try (ReadOnce.Copies copies = new ReadOnce.Copies(inputs)) {
      RowSet once = ReadOnce.rows(store, copies);
      try (CloseableIterator<Row> first = once.open();
          CloseableIterator<Row> second = once.open()) {
        assertThat(drain(second)).isEqualTo(rows);
        assertThat(drain(first)).isEqualTo(rows);
      }
      assertThat(readAll(once)).isEqualTo(rows);
      assertThat(storeReads).hasValue(2);
    }
    try (Stream<Path> left = Files.list(inputs)) {
      assertThat(left).isEmpty();
    }
  }

  private static List<Row> readAll(RowSet set) {
    try (CloseableIterator<Row> iterator = set.open()) {
      return drain(iterator);
    }
  }

  private static List<Row> drain(CloseableIterator<Row> iterator) {
    List<Row> read = new ArrayList<>();
    iterator.forEachRemaining(read::add);
    return read;
  }

  private static Row row(String name, long id, Instant at) {
    return new Row(
        SCHEMA, Arrays.asList(name, id, 7, true, 0.5, new BigDecimal("12.3400"), at, id * 10));
  }
}
