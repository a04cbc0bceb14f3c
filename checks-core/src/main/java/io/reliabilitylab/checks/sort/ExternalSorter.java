package io.reliabilitylab.checks.sort;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.reliabilitylab.spi.data.CloseableIterator;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.PriorityQueue;
import java.util.stream.Stream;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * Sorts a stream of records holding at most {@code maxInMemory} of them on the heap: full buffers
 * are sorted and spilled as runs to a private temporary directory, and the runs are merged k ways
 * (in several passes when there are more than {@code fanIn}). The sort is stable: records that
 * compare equal keep their input order. Input that fits in memory is never written to disk.
 *
 * <pre>{@code
 * ExternalSorter<Row> sorter = ExternalSorter.of(
 *     RowCodec.of(schema), Orderings.rowsByKey(schema), 250_000, workDirectory);
 * try (CloseableIterator<Row> rows = rowSet.open();
 *     CloseableIterator<Row> sorted = sorter.sort(rows)) {
 *   while (sorted.hasNext()) { ... }
 * }
 * }</pre>
 *
 * The spill files are deleted when the sorted iterator is closed, and at once when reading the
 * input fails. A sorter instance is not thread-safe (its codec reuses buffers); sort with one
 * thread at a time.
 */
@API(status = EXPERIMENTAL)
public final class ExternalSorter<T> {

  /** How many runs one merge pass opens at once; bounds open files and buffer memory. */
  static final int DEFAULT_FAN_IN = 64;

  private static final int WRITE_BUFFER = 1 << 15;
  private static final int READ_BUFFER = 1 << 14;

  private final RecordCodec<T> codec;
  private final Comparator<? super T> order;
  private final int maxInMemory;
  private final Path workDirectory;
  private final int fanIn;

  private ExternalSorter(
      RecordCodec<T> codec,
      Comparator<? super T> order,
      int maxInMemory,
      Path workDirectory,
      int fanIn) {
    this.codec = codec;
    this.order = order;
    this.maxInMemory = maxInMemory;
    this.workDirectory = workDirectory;
    this.fanIn = fanIn;
  }

  /**
   * A sorter.
   *
   * @param codec writes and reads records in spill files
   * @param order the sort order
   * @param maxInMemory how many records may be held on the heap at once, at least 1
   * @param workDirectory where spill files go (created if missing)
   */
  public static <T> ExternalSorter<T> of(
      RecordCodec<T> codec, Comparator<? super T> order, int maxInMemory, Path workDirectory) {
    return of(codec, order, maxInMemory, workDirectory, DEFAULT_FAN_IN);
  }

  static <T> ExternalSorter<T> of(
      RecordCodec<T> codec,
      Comparator<? super T> order,
      int maxInMemory,
      Path workDirectory,
      int fanIn) {
    Objects.requireNonNull(codec, "codec");
    Objects.requireNonNull(order, "order");
    Objects.requireNonNull(workDirectory, "workDirectory");
    if (maxInMemory < 1) {
      throw new IllegalArgumentException(
          "maxInMemory must be at least 1, was " + maxInMemory + "; give the sorter some memory");
    }
    if (fanIn < 2) {
      throw new IllegalArgumentException("fanIn must be at least 2, was " + fanIn);
    }
    return new ExternalSorter<>(codec, order, maxInMemory, workDirectory, fanIn);
  }

  /**
   * Reads the input to its end and returns its records in order. The caller closes the input and
   * the returned iterator; an exception from the input propagates after the spill files are gone.
   */
  public CloseableIterator<T> sort(Iterator<? extends T> input) {
    Objects.requireNonNull(input, "input");
    List<T> buffer = new ArrayList<>(Math.min(maxInMemory, 1024));
    Spill spill = null;
    try {
      while (input.hasNext()) {
        buffer.add(input.next());
        if (buffer.size() >= maxInMemory) {
          if (spill == null) {
            spill = new Spill(Files.createTempDirectory(createdWorkDirectory(), "srl-sort-"));
          }
          spill.writeRun(buffer);
          buffer.clear();
        }
      }
      if (spill == null) {
        buffer.sort(order);
        return new InMemory<>(buffer);
      }
      if (!buffer.isEmpty()) {
        spill.writeRun(buffer);
        buffer.clear();
      }
      while (spill.runs.size() > fanIn) {
        spill.mergePass();
      }
      return spill.openMerge(spill.runs, true);
    } catch (IOException e) {
      if (spill != null) {
        spill.delete();
      }
      throw new UncheckedIOException(
          "Sorting with spill files under " + workDirectory + " failed", e);
    } catch (RuntimeException | Error e) {
      if (spill != null) {
        spill.delete();
      }
      throw e;
    }
  }

  private Path createdWorkDirectory() throws IOException {
    return Files.createDirectories(workDirectory);
  }

  /** A sorted run on disk. */
  private record Run(Path file, long records) {}

  /** The spill directory of one sort and its runs, in input order (which keeps the sort stable). */
  private final class Spill {
    private final Path directory;
    private final List<Run> runs = new ArrayList<>();
    private int nextFile;

    Spill(Path directory) {
      this.directory = directory;
    }

    void writeRun(List<T> buffer) throws IOException {
      buffer.sort(order);
      Path file = directory.resolve("run-" + nextFile++);
      try (DataOutputStream out = output(file)) {
        for (T record : buffer) {
          codec.write(out, record);
        }
      }
      runs.add(new Run(file, buffer.size()));
    }

    /** Merges consecutive groups of up to fanIn runs into one run each. */
    void mergePass() throws IOException {
      List<Run> merged = new ArrayList<>();
      for (int from = 0; from < runs.size(); from += fanIn) {
        List<Run> group = runs.subList(from, Math.min(runs.size(), from + fanIn));
        if (group.size() == 1) {
          merged.add(group.get(0));
          continue;
        }
        Path file = directory.resolve("run-" + nextFile++);
        long records = 0;
        try (Merge<T> merge = openMerge(group, false);
            DataOutputStream out = output(file)) {
          while (merge.hasNext()) {
            codec.write(out, merge.next());
            records++;
          }
        }
        for (Run run : group) {
          Files.deleteIfExists(run.file());
        }
        merged.add(new Run(file, records));
      }
      runs.clear();
      runs.addAll(merged);
    }

    /** Opens a merge of runs; the final merge deletes the whole spill when it is closed. */
    Merge<T> openMerge(List<Run> group, boolean finalMerge) throws IOException {
      List<Cursor<T>> cursors = new ArrayList<>(group.size());
      Merge<T> merge = new Merge<>(order, cursors, this::delete, finalMerge);
      try {
        for (int i = 0; i < group.size(); i++) {
          Run run = group.get(i);
          DataInputStream in =
              new DataInputStream(
                  new BufferedInputStream(Files.newInputStream(run.file()), READ_BUFFER));
          Cursor<T> cursor = new Cursor<>(codec, in, run.records(), i);
          cursors.add(cursor);
          if (cursor.advance()) {
            merge.queue.add(cursor);
          }
        }
      } catch (IOException | RuntimeException e) {
        merge.closeCursors();
        throw e;
      }
      return merge;
    }

    void delete() {
      try (Stream<Path> files = Files.list(directory)) {
        for (Path file : (Iterable<Path>) files::iterator) {
          Files.deleteIfExists(file);
        }
      } catch (IOException ignored) {
        // The directory is gone or unreadable; nothing more to clean.
      }
      try {
        Files.deleteIfExists(directory);
      } catch (IOException ignored) {
        // Left behind only if something else wrote into it; it lives under the work directory.
      }
    }
  }

  private static DataOutputStream output(Path file) throws IOException {
    return new DataOutputStream(
        new BufferedOutputStream(Files.newOutputStream(file), WRITE_BUFFER));
  }

  /** The next record of one run. */
  private static final class Cursor<T> {
    private final RecordCodec<T> codec;
    private final DataInputStream in;
    private final int runIndex;
    private long remaining;
    private @Nullable T current;

    Cursor(RecordCodec<T> codec, DataInputStream in, long records, int runIndex) {
      this.codec = codec;
      this.in = in;
      this.remaining = records;
      this.runIndex = runIndex;
    }

    boolean advance() throws IOException {
      if (remaining == 0) {
        current = null;
        return false;
      }
      current = codec.read(in);
      remaining--;
      return true;
    }

    T current() {
      return Objects.requireNonNull(current);
    }
  }

  /** A k-way merge of sorted runs; ties go to the earlier run, which keeps the sort stable. */
  private static final class Merge<T> implements CloseableIterator<T> {
    private final List<Cursor<T>> cursors;
    private final PriorityQueue<Cursor<T>> queue;
    private final Runnable onFinalClose;
    private final boolean deleteOnClose;
    private boolean closed;

    Merge(
        Comparator<? super T> order,
        List<Cursor<T>> cursors,
        Runnable deleteSpill,
        boolean deleteOnClose) {
      this.cursors = cursors;
      this.queue =
          new PriorityQueue<>(
              Math.max(1, cursors.size()),
              (a, b) -> {
                int c = order.compare(a.current(), b.current());
                return c != 0 ? c : Integer.compare(a.runIndex, b.runIndex);
              });
      this.onFinalClose = deleteSpill;
      this.deleteOnClose = deleteOnClose;
    }

    @Override
    public boolean hasNext() {
      return !queue.isEmpty();
    }

    @Override
    public T next() {
      Cursor<T> cursor = queue.poll();
      if (cursor == null) {
        throw new NoSuchElementException();
      }
      T record = cursor.current();
      try {
        if (cursor.advance()) {
          queue.add(cursor);
        }
      } catch (IOException e) {
        throw new UncheckedIOException("Reading a sort spill file failed", e);
      }
      return record;
    }

    void closeCursors() {
      for (Cursor<T> cursor : cursors) {
        try {
          cursor.in.close();
        } catch (IOException ignored) {
          // Reading is over; a failed close of a temporary file changes nothing.
        }
      }
      queue.clear();
    }

    @Override
    public void close() {
      if (closed) {
        return;
      }
      closed = true;
      closeCursors();
      if (deleteOnClose) {
        onFinalClose.run();
      }
    }
  }

  /** The sorted buffer, handed out once; slots are cleared as they are read. */
  private static final class InMemory<T> implements CloseableIterator<T> {
    private final List<@Nullable T> records;
    private int next;

    @SuppressWarnings("unchecked")
    InMemory(List<T> records) {
      this.records = (List<@Nullable T>) (List<?>) records;
    }

    @Override
    public boolean hasNext() {
      return next < records.size();
    }

    @Override
    public T next() {
      if (next >= records.size()) {
        throw new NoSuchElementException();
      }
      T record = Objects.requireNonNull(records.get(next));
      records.set(next++, null);
      return record;
    }

    @Override
    public void close() {
      records.clear();
      next = 0;
    }
  }
}
