package io.reliabilitylab.checks;

import io.reliabilitylab.checks.sort.Orderings;
import io.reliabilitylab.spi.check.CheckContext;
import io.reliabilitylab.spi.check.Evidence;
import io.reliabilitylab.spi.data.BucketDigest;
import io.reliabilitylab.spi.data.CanonicalForm;
import io.reliabilitylab.spi.data.CloseableIterator;
import io.reliabilitylab.spi.data.KeyRange;
import io.reliabilitylab.spi.data.KeyRangeDigests;
import io.reliabilitylab.spi.data.Row;
import io.reliabilitylab.spi.data.RowSet;
import io.reliabilitylab.spi.data.TableSchema;
import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Digest-and-bisect: compares two row sets by the digests of their key buckets, computed where the
 * rows live, and reads row by row only the buckets whose digests differ, narrowing a large
 * differing bucket into smaller ones first. The rows read go through {@link RowDiff}, so the
 * differences reported (counts and samples, in key order) are those a full diff reports; the row
 * totals come from the digests. A difference can hide only behind a collision of 64-bit digest sums
 * within one bucket.
 *
 * <p>Applies when both sides offer {@link KeyRangeDigests}, at least one of them {@linkplain
 * KeyRangeDigests#keysUnique() cannot hold a key twice} (else a key held twice on both sides would
 * pass as equal digests) and the key range fits a long.
 */
final class DigestBisect {

  /** Buckets of the first pass: at most this many, over the union of both sides' key ranges. */
  static final int FIRST_PASS_BUCKETS = 4096;

  /** A differing bucket with at most this many rows on each side is read row by row. */
  static final long LEAF_ROWS = 4096;

  /** A larger differing bucket is split into this many narrower ones and digested again. */
  static final int SPLIT = 64;

  /** Ranges per read of rows, so that one statement stays small. */
  static final int RANGES_PER_READ = 512;

  /** What a comparison found, besides the samples it wrote. */
  record Result(
      RowDiff.Tally tally,
      long buckets,
      long differingBuckets,
      long rowsRead,
      long expectedDigestMs,
      long actualDigestMs) {}

  private final KeyRangeDigests expected;
  private final KeyRangeDigests actual;
  private final TableSchema schema;
  private final long leafRows;
  private long differingBuckets;

  /** Time each side spent answering bounds and digests: where a comparison's time goes. */
  private final long[] digestNanos = new long[2];

  DigestBisect(KeyRangeDigests expected, KeyRangeDigests actual, TableSchema schema) {
    this(expected, actual, schema, LEAF_ROWS);
  }

  DigestBisect(
      KeyRangeDigests expected, KeyRangeDigests actual, TableSchema schema, long leafRows) {
    this.expected = expected;
    this.actual = actual;
    this.schema = schema;
    this.leafRows = leafRows;
  }

  /** Why the digests cannot decide for these sides, or empty when they can. */
  static Optional<String> notApplicable(
      KeyRangeDigests expected, KeyRangeDigests actual, TableSchema schema) {
    if (schema.keyIndexes().length != 1) {
      return Optional.of("the key has " + schema.keyIndexes().length + " columns");
    }
    if (!expected.keysUnique() && !actual.keysUnique()) {
      return Optional.of("neither side enforces a unique key");
    }
    return Optional.empty();
  }

  /**
   * Compares, writing samples into the evidence; empty when the keys span more than a long, where
   * the caller falls back to the full diff.
   */
  Optional<Result> compare(CheckContext context, RowDiff.Sides sides, Evidence.Builder evidence) {
    List<Optional<KeyRange>> bounds = both(KeyRangeDigests::bounds);
    Optional<KeyRange> range =
        bounds.get(0).isEmpty()
            ? bounds.get(1)
            : bounds.get(1).map(r -> r.span(bounds.get(0).get())).or(() -> bounds.get(0));
    if (range.isPresent() && range.get().width() == Long.MAX_VALUE) {
      return Optional.empty();
    }
    MessageDigest expectedSha = CanonicalForm.newSha256();
    MessageDigest actualSha = CanonicalForm.newSha256();
    List<KeyRange> leaves = new ArrayList<>();
    long[] totals = new long[2];
    long buckets = 0;
    if (range.isPresent()) {
      long width = ceilDiv(range.get().width(), FIRST_PASS_BUCKETS);
      List<List<BucketDigest>> first = both(side -> side.digests(range.get(), width));
      for (BucketDigest digest : first.get(0)) {
        totals[0] += digest.rows();
        update(expectedSha, digest);
      }
      for (BucketDigest digest : first.get(1)) {
        totals[1] += digest.rows();
        update(actualSha, digest);
      }
      buckets = first.get(0).size() + first.get(1).size();
      narrow(first.get(0), first.get(1), width, leaves);
    }
    List<KeyRange> reads = coalesce(leaves);
    long[] rowsRead = new long[1];
    var order = Orderings.rowsByKeyThenValues(schema);
    RowDiff.Tally leafTally;
    try (Peeking<Row> expectedRows =
            Inputs.sortedRows(
                leafRows(expected, reads, sides.expectedDescription(), rowsRead),
                order,
                context,
                2);
        Peeking<Row> actualRows =
            Inputs.sortedRows(
                leafRows(actual, reads, sides.actualDescription(), rowsRead), order, context, 2)) {
      leafTally = RowDiff.compare(expectedRows, actualRows, schema, sides, evidence);
    }
    RowDiff.Counts leafCounts = leafTally.counts();
    RowDiff.Counts counts =
        new RowDiff.Counts(
            totals[0],
            totals[1],
            leafCounts.missing(),
            leafCounts.unexpected(),
            leafCounts.mismatched(),
            leafCounts.duplicateKeysExpected(),
            leafCounts.duplicateKeysActual());
    RowDiff.Tally tally =
        new RowDiff.Tally(
            counts,
            HexFormat.of().formatHex(expectedSha.digest()),
            HexFormat.of().formatHex(actualSha.digest()));
    return Optional.of(
        new Result(
            tally,
            buckets,
            differingBuckets,
            rowsRead[0],
            digestNanos[0] / 1_000_000,
            digestNanos[1] / 1_000_000));
  }

  /**
   * Walks two bucket lists in key order; a bucket whose digests differ becomes a leaf when small,
   * else is digested again in narrower buckets.
   */
  private void narrow(
      List<BucketDigest> expectedBuckets,
      List<BucketDigest> actualBuckets,
      long width,
      List<KeyRange> leaves) {
    int e = 0;
    int a = 0;
    while (e < expectedBuckets.size() || a < actualBuckets.size()) {
      BucketDigest want = e < expectedBuckets.size() ? expectedBuckets.get(e) : null;
      BucketDigest got = a < actualBuckets.size() ? actualBuckets.get(a) : null;
      int c =
          want == null
              ? 1
              : got == null ? -1 : Long.compare(want.keys().first(), got.keys().first());
      BucketDigest one = c <= 0 ? want : got;
      e += c <= 0 ? 1 : 0;
      a += c >= 0 ? 1 : 0;
      if (c == 0 && want.sameRows(got)) {
        continue;
      }
      differingBuckets++;
      KeyRange keys = one.keys();
      long rows = Math.max(c <= 0 ? want.rows() : 0, c >= 0 ? got.rows() : 0);
      if (rows <= leafRows || width == 1 || c != 0) {
        // A bucket on one side only is read whole: every row in it is a difference anyway.
        leaves.add(keys);
      } else {
        long narrower = ceilDiv(keys.width(), SPLIT);
        List<List<BucketDigest>> split = both(side -> side.digests(keys, narrower));
        narrow(split.get(0), split.get(1), narrower, leaves);
      }
    }
  }

  private RowSet leafRows(
      KeyRangeDigests side, List<KeyRange> ranges, String description, long[] rowsRead) {
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
        return new ChunkedRows(side, ranges, rowsRead);
      }
    };
  }

  /** Runs one query on both sides at once: the two stores work in parallel. */
  private <T> List<T> both(Function<KeyRangeDigests, T> query) {
    // A thread of its own rather than the common pool, which a 2-core machine sizes to one thread
    // that anything else in the JVM may hold.
    CompletableFuture<T> other =
        CompletableFuture.supplyAsync(
            () -> timed(1, () -> query.apply(actual)),
            runnable -> {
              Thread thread = new Thread(runnable, "srl-digest-actual");
              thread.setDaemon(true);
              thread.start();
            });
    T mine = timed(0, () -> query.apply(expected));
    try {
      return List.of(mine, other.join());
    } catch (CompletionException e) {
      throw e.getCause() instanceof RuntimeException runtime ? runtime : e;
    }
  }

  private <T> T timed(int side, Supplier<T> query) {
    long started = System.nanoTime();
    try {
      return query.get();
    } finally {
      synchronized (digestNanos) {
        digestNanos[side] += System.nanoTime() - started;
      }
    }
  }

  static List<KeyRange> coalesce(List<KeyRange> ranges) {
    List<KeyRange> sorted = new ArrayList<>(ranges);
    sorted.sort((x, y) -> Long.compare(x.first(), y.first()));
    List<KeyRange> merged = new ArrayList<>();
    for (KeyRange range : sorted) {
      KeyRange last = merged.isEmpty() ? null : merged.get(merged.size() - 1);
      if (last != null && last.last() != Long.MAX_VALUE && last.last() + 1 >= range.first()) {
        merged.set(
            merged.size() - 1, new KeyRange(last.first(), Math.max(last.last(), range.last())));
      } else {
        merged.add(range);
      }
    }
    return merged;
  }

  private static long ceilDiv(long value, long divisor) {
    return Math.max(1, -Math.floorDiv(-value, divisor));
  }

  private static void update(MessageDigest sha, BucketDigest digest) {
    sha.update(
        ByteBuffer.allocate(32)
            .putLong(digest.keys().first())
            .putLong(digest.keys().last())
            .putLong(digest.rows())
            .putLong(digest.hashSum())
            .array());
  }

  /** The rows of many ranges, read a chunk of ranges at a time. */
  private static final class ChunkedRows implements CloseableIterator<Row> {
    private final KeyRangeDigests side;
    private final List<KeyRange> ranges;
    private final long[] rowsRead;
    private int next;
    private CloseableIterator<Row> chunk = CloseableIterator.of(List.of());

    ChunkedRows(KeyRangeDigests side, List<KeyRange> ranges, long[] rowsRead) {
      this.side = side;
      this.ranges = ranges;
      this.rowsRead = rowsRead;
    }

    @Override
    public boolean hasNext() {
      while (!chunk.hasNext()) {
        chunk.close();
        if (next >= ranges.size()) {
          return false;
        }
        int end = Math.min(ranges.size(), next + RANGES_PER_READ);
        chunk = side.rows(ranges.subList(next, end));
        next = end;
      }
      return true;
    }

    @Override
    public Row next() {
      if (!hasNext()) {
        throw new NoSuchElementException("No more rows in the differing buckets");
      }
      rowsRead[0]++;
      return chunk.next();
    }

    @Override
    public void close() {
      chunk.close();
    }
  }
}
