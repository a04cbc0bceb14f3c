package io.reliabilitylab.checks.iceberg;

import io.reliabilitylab.spi.data.CloseableIterator;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Optional;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileContent;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.GenericDeleteFilter;
import org.apache.iceberg.data.IdentityPartitionConverters;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.data.parquet.GenericParquetReaders;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.parquet.Parquet;
import org.apache.iceberg.types.TypeUtil;
import org.apache.iceberg.types.Types;
import org.apache.iceberg.util.PartitionUtil;
import org.jspecify.annotations.Nullable;

/**
 * Reads one snapshot of an Iceberg table data file by data file on a pool of threads, with deletes
 * applied by Iceberg's own delete filter, and each delete file read once for the whole scan rather
 * than once for every data file it applies to (a CDC table's equality deletes apply to most of its
 * data files). Parquet data files only: {@link #plan()} reports whether the snapshot's are.
 *
 * <p>The filter prunes data files and row groups by their statistics only; callers filter rows.
 */
final class ParallelScan implements AutoCloseable {

  private static final int BATCH = 1024;

  private final Table table;
  private final long snapshotId;
  private final Schema projection;
  private final Expression filter;
  private final ExecutorService pool;
  private final int threads;
  private final CachedDeletes deletes;

  ParallelScan(
      Table table, long snapshotId, Schema projection, Expression filter, CachedDeletes deletes) {
    this.table = table;
    this.snapshotId = snapshotId;
    this.projection = projection;
    this.filter = filter;
    this.deletes = deletes;
    this.threads = Math.max(1, Runtime.getRuntime().availableProcessors());
    this.pool =
        Executors.newFixedThreadPool(
            threads,
            runnable -> {
              Thread thread = new Thread(runnable, "srl-iceberg-scan");
              thread.setDaemon(true);
              return thread;
            });
  }

  /** The snapshot's data files matching the filter, or empty when one of them is not Parquet. */
  Optional<List<FileScanTask>> plan() {
    List<FileScanTask> tasks = new ArrayList<>();
    try (CloseableIterable<FileScanTask> planned =
        table.newScan().useSnapshot(snapshotId).filter(filter).includeColumnStats().planFiles()) {
      for (FileScanTask task : planned) {
        if (task.file().format() != FileFormat.PARQUET) {
          return Optional.empty();
        }
        tasks.add(task);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Planning a scan of " + table.name() + " failed", e);
    }
    if (filter.op() == Expression.Operation.TRUE) {
      deletes.fullPlan(tasks);
    }
    return Optional.of(tasks);
  }

  /** One data file's live records (deletes applied), in the projection's columns and more. */
  CloseableIterable<Record> open(FileScanTask task) {
    Optional<KeyDeletes> byKey = deletes.keyDeletes();
    if (byKey.isEmpty()) {
      GenericDeleteFilter deleteFilter = deletes.filterFor(task, table.schema(), projection);
      return deleteFilter.filter(parquet(task, deleteFilter.requiredSchema()));
    }
    // Equality deletes by one key column: one lookup per row in an index built once, instead of
    // a set of every applicable delete rebuilt for each data file.
    KeyDeletes keyDeletes = byKey.get();
    Schema withKey = TypeUtil.join(projection, table.schema().select(keyDeletes.column()));
    List<DeleteFile> positional = new ArrayList<>();
    for (DeleteFile file : task.deletes()) {
      if (file.content() == FileContent.POSITION_DELETES) {
        positional.add(file);
      }
    }
    CloseableIterable<Record> records;
    if (positional.isEmpty()) {
      records = parquet(task, withKey);
    } else {
      PositionDeletes positions =
          new PositionDeletes(task.file().location(), positional, table.schema(), withKey, deletes);
      records = positions.filter(parquet(task, positions.requiredSchema()));
    }
    if (keyDeletes.isEmpty()) {
      return records;
    }
    long dataSequence = task.file().dataSequenceNumber();
    int[] at = {-1};
    return CloseableIterable.filter(
        records,
        record -> {
          if (at[0] < 0) {
            at[0] = position(record.struct(), keyDeletes.column());
          }
          return !keyDeletes.deletes(((Number) record.get(at[0])).longValue(), dataSequence);
        });
  }

  private static int position(Types.StructType struct, String column) {
    List<Types.NestedField> fields = struct.fields();
    for (int i = 0; i < fields.size(); i++) {
      if (fields.get(i).name().equals(column)) {
        return i;
      }
    }
    throw new IllegalStateException("A record of " + struct + " lacks " + column);
  }

  private CloseableIterable<Record> parquet(FileScanTask task, Schema required) {
    Map<Integer, ?> constants =
        PartitionUtil.constantsMap(task, IdentityPartitionConverters::convertConstant);
    InputFile input = table.io().newInputFile(task.file().location());
    return Parquet.read(input)
        .project(required)
        .split(task.start(), task.length())
        .filter(task.residual())
        .createReaderFunc(
            fileSchema -> GenericParquetReaders.buildReader(required, fileSchema, constants))
        .build();
  }

  /**
   * One data file's records as Parquet holds them, no deletes applied: what a read of the same
   * files costs at the least.
   */
  CloseableIterable<Record> openRaw(FileScanTask task) {
    InputFile input = table.io().newInputFile(task.file().location());
    return Parquet.read(input)
        .project(projection)
        .split(task.start(), task.length())
        .createReaderFunc(fileSchema -> GenericParquetReaders.buildReader(projection, fileSchema))
        .build();
  }

  /** Counts the records of every data file, read raw on the pool (no deletes applied). */
  long countRaw(List<FileScanTask> tasks) {
    List<Future<Long>> futures = new ArrayList<>();
    for (FileScanTask task : tasks) {
      futures.add(
          pool.submit(
              () -> {
                long count = 0;
                try (CloseableIterable<Record> records = openRaw(task)) {
                  for (Record record : records) {
                    count += record == null ? 0 : 1;
                  }
                }
                return count;
              }));
    }
    long total = 0;
    try {
      for (Future<Long> future : futures) {
        total += future.get();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("Interrupted while reading " + table.name(), e);
    } catch (ExecutionException e) {
      throw rethrow(e.getCause());
    }
    return total;
  }

  /**
   * Applies {@code perFile} to every data file's records on the pool; the results, in task order.
   * Each call gets its own iterable, so that a result can be built without locking.
   */
  <A> List<A> eachFile(List<FileScanTask> tasks, Function<CloseableIterable<Record>, A> perFile) {
    List<Future<A>> futures = new ArrayList<>();
    for (FileScanTask task : tasks) {
      futures.add(
          pool.submit(
              () -> {
                try (CloseableIterable<Record> records = open(task)) {
                  return perFile.apply(records);
                }
              }));
    }
    List<A> results = new ArrayList<>();
    try {
      for (Future<A> future : futures) {
        results.add(future.get());
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      futures.forEach(f -> f.cancel(true));
      throw new IllegalStateException("Interrupted while reading " + table.name(), e);
    } catch (ExecutionException e) {
      futures.forEach(f -> f.cancel(true));
      throw rethrow(e.getCause());
    }
    return results;
  }

  /**
   * Every record of the tasks, read on the pool and converted there, handed over in batches through
   * a bounded queue (memory: a few batches per thread). The caller closes the iterator.
   */
  <T> CloseableIterator<T> records(
      List<FileScanTask> tasks, Function<Record, @Nullable T> convert) {
    return new Producers<>(tasks, convert);
  }

  @Override
  public void close() {
    pool.shutdownNow();
  }

  static RuntimeException rethrow(Throwable cause) {
    if (cause instanceof RuntimeException runtime) {
      return runtime;
    }
    if (cause instanceof Error error) {
      throw error;
    }
    if (cause instanceof IOException io) {
      return new UncheckedIOException(io);
    }
    return new IllegalStateException(cause);
  }

  /** Producers on the pool, one consumer: the caller's thread. */
  private final class Producers<T> implements CloseableIterator<T> {
    private final List<FileScanTask> tasks;
    private final Function<Record, @Nullable T> convert;
    private final BlockingQueue<List<T>> queue = new ArrayBlockingQueue<>(4 * threads);
    private final AtomicInteger nextTask = new AtomicInteger();
    private final AtomicInteger running = new AtomicInteger();
    private final AtomicBoolean closed = new AtomicBoolean();
    private volatile @Nullable Throwable failure;
    private List<T> batch = List.of();
    private int index;
    private final List<T> end = new ArrayList<>(0);

    Producers(List<FileScanTask> tasks, Function<Record, @Nullable T> convert) {
      this.tasks = tasks;
      this.convert = convert;
      int producers = Math.min(threads, Math.max(1, tasks.size()));
      running.set(producers);
      for (int i = 0; i < producers; i++) {
        pool.execute(this::produce);
      }
    }

    private void produce() {
      try {
        int task;
        while (!closed.get() && (task = nextTask.getAndIncrement()) < tasks.size()) {
          try (CloseableIterable<Record> records = open(tasks.get(task))) {
            List<T> out = new ArrayList<>(BATCH);
            for (Record record : records) {
              T value = convert.apply(record);
              if (value != null) {
                out.add(value);
              }
              if (out.size() == BATCH) {
                put(out);
                out = new ArrayList<>(BATCH);
              }
            }
            if (!out.isEmpty()) {
              put(out);
            }
          }
        }
      } catch (Throwable e) {
        failure = e;
        closed.set(true);
      } finally {
        if (running.decrementAndGet() == 0) {
          queue.offer(end);
        }
      }
    }

    private void put(List<T> out) throws InterruptedException {
      while (!closed.get()) {
        if (queue.offer(out, 100, TimeUnit.MILLISECONDS)) {
          return;
        }
      }
    }

    @Override
    public boolean hasNext() {
      while (index >= batch.size()) {
        if (batch == end) {
          return false;
        }
        try {
          List<T> taken = queue.poll(100, TimeUnit.MILLISECONDS);
          if (failure != null) {
            throw rethrow(failure);
          }
          if (taken != null) {
            batch = taken;
            index = 0;
          }
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new IllegalStateException("Interrupted while reading " + table.name(), e);
        }
      }
      return true;
    }

    @Override
    public T next() {
      if (!hasNext()) {
        throw new NoSuchElementException("No more rows in " + table.name());
      }
      return batch.get(index++);
    }

    @Override
    public void close() {
      closed.set(true);
      queue.clear();
    }
  }
}
