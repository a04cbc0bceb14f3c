package io.reliabilitylab.checks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.reliabilitylab.spi.check.CheckResult;
import io.reliabilitylab.spi.check.EvidenceSample;
import io.reliabilitylab.spi.check.Verdict;
import io.reliabilitylab.spi.data.CloseableIterator;
import io.reliabilitylab.spi.data.DeliverySemantics;
import io.reliabilitylab.spi.data.Row;
import io.reliabilitylab.spi.data.RowSet;
import io.reliabilitylab.spi.data.TableSchema;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.NoSuchElementException;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Reconciles a million rows per side in a heap far too small to hold them: run by the {@code
 * bounded-memory} Surefire execution with {@code -Xmx64m}. Rows are generated lazily, in a
 * pseudo-random permutation of keys, so only the check itself could hold them.
 */
class SnapshotDiffSpillTest {

  private static final int ROWS = 1_000_000;
  private static final long MISSING_KEY = 17;
  private static final long MISMATCHED_KEY = 42;
  private static final long DUPLICATED_KEY = 123_456;
  private static final long UNEXPECTED_KEY = ROWS + 5;
  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
  private static final String[] STATUSES = {
    "created", "paid", "packed", "shipped", "delivered", "cancelled"
  };

  @TempDir Path work;

  @Test
  void aMillionRowsPerSideReconcileInASmallHeap() throws IOException {
    long heap = Runtime.getRuntime().maxMemory();
    assumeTrue(
        heap <= 128L * 1024 * 1024,
        "runs in the bounded-memory Surefire execution (-Xmx64m); this JVM has " + heap + " bytes");
    // Even at an impossible 100 bytes per row, both sides together would not fit in this heap.
    assertThat(2L * ROWS * 100).isGreaterThan(heap);

    long started = System.nanoTime();
    CheckResult result =
        new SnapshotDiffCheck()
            .check(
                Fixture.context(DeliverySemantics.EXACTLY_ONCE, work)
                    .expectedCurrent(new GeneratedRows("generated source", false))
                    .actualCurrent(new GeneratedRows("generated sink", true))
                    .maxRowsInMemory(50_000)
                    .build());
    Duration took = Duration.ofNanos(System.nanoTime() - started);

    assertThat(result.verdict()).isEqualTo(Verdict.FAILED);
    assertThat(result.evidence().counts())
        .containsEntry("expected_rows", (long) ROWS)
        .containsEntry("actual_rows", (long) ROWS + 1)
        .containsEntry("missing", 1L)
        .containsEntry("unexpected", 1L)
        .containsEntry("mismatched", 1L)
        .containsEntry("duplicate_keys_expected", 0L)
        .containsEntry("duplicate_keys_actual", 1L)
        .containsEntry("diff_count", 4L);
    assertThat(result.evidence().samples())
        .extracting(EvidenceSample::kind, EvidenceSample::subject)
        .containsExactly(
            tuple("missing", "order_id=" + MISSING_KEY),
            tuple("mismatched", "order_id=" + MISMATCHED_KEY),
            tuple("duplicate_key", "order_id=" + DUPLICATED_KEY),
            tuple("unexpected", "order_id=" + UNEXPECTED_KEY));
    assertThat(result.evidence().samples().get(1).differingColumns())
        .containsExactly("amount_cents");
    try (Stream<Path> left = Files.list(work)) {
      assertThat(left).as("spill files are deleted").isEmpty();
    }
    assertThat(took).as("reconciling 2M rows").isLessThan(Duration.ofSeconds(45));
    System.out.printf(
        "snapshot-diff of %,d rows per side with -Xmx%dm took %d ms%n",
        ROWS, heap / (1024 * 1024), took.toMillis());
  }

  private static Row row(long key, long amount) {
    return TableSchema.ORDERS.row(
        key,
        "bk-" + key,
        key % 1000,
        amount,
        STATUSES[(int) (key % STATUSES.length)],
        key + 1_000_000,
        (int) (key % 97),
        T0.plusMillis(key));
  }

  /** Keys 0..ROWS-1 in a fixed pseudo-random order; the broken side has four deliberate faults. */
  private record GeneratedRows(String description, boolean broken) implements RowSet {

    @Override
    public TableSchema schema() {
      return TableSchema.ORDERS;
    }

    @Override
    public CloseableIterator<Row> open() {
      return new CloseableIterator<>() {
        private long index;
        private @Nullable Row pending;
        private @Nullable Row repeat;
        private boolean unexpectedServed;

        @Override
        public boolean hasNext() {
          fill();
          return pending != null;
        }

        @Override
        public Row next() {
          fill();
          Row row = pending;
          if (row == null) {
            throw new NoSuchElementException();
          }
          pending = null;
          return row;
        }

        private void fill() {
          if (pending == null && repeat != null) {
            pending = repeat;
            repeat = null;
          }
          while (pending == null && index < ROWS) {
            // 999_983 is prime and coprime to ROWS: i -> key is a permutation of 0..ROWS-1.
            long key = (index++ * 999_983L + 12_345) % ROWS;
            if (broken && key == MISSING_KEY) {
              continue;
            }
            long amount = key * 3 % 100_000;
            pending = row(key, broken && key == MISMATCHED_KEY ? amount + 1 : amount);
            if (broken && key == DUPLICATED_KEY) {
              repeat = pending;
            }
          }
          if (pending == null && broken && !unexpectedServed) {
            unexpectedServed = true;
            pending = row(UNEXPECTED_KEY, 1);
          }
        }

        @Override
        public void close() {}
      };
    }
  }
}
