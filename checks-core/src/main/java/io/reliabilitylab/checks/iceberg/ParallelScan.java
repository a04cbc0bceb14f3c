package io.reliabilitylab.checks.iceberg;

import io.reliabilitylab.spi.data.CloseableIterator;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Optional;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.function.Supplier;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileContent;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Schema;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.BaseDeleteLoader;
import org.apache.iceberg.data.DeleteFilter;
import org.apache.iceberg.data.DeleteLoader;
import org.apache.iceberg.data.GenericDeleteFilter;
import org.apache.iceberg.data.IdentityPartitionConverters;
import org.apache.iceberg.data.InternalRecordWrapper;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.data.parquet.GenericParquetReaders;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.parquet.Parquet;
import org.apache.iceberg.types.Type;
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

  private static RuntimeException rethrow(Throwable cause) {
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

  /**
   * Delete files read once per scan: Iceberg's own loader, with its cache hooks answered by a map
   * that lives as long as the reader of one snapshot.
   */
  static final class CachedDeletes {
    private final Table table;
    private final long snapshotId;
    private final FileIO io;
    private final Map<String, Memo> loaded = new ConcurrentHashMap<>();
    private @Nullable Optional<KeyDeletes> keyDeletes;
    private @Nullable List<FileScanTask> fullPlan;
    private final DeleteLoader loader;

    CachedDeletes(Table table, long snapshotId) {
      this.table = table;
      this.snapshotId = snapshotId;
      this.io = table.io();
      this.loader =
          new BaseDeleteLoader(this::inputFile) {
            @Override
            protected boolean canCache(long size) {
              return true;
            }

            @Override
            @SuppressWarnings("unchecked")
            protected <V> V getOrLoad(String key, Supplier<V> valueSupplier, long valueSize) {
              return (V) loaded.computeIfAbsent(key, k -> new Memo()).get(valueSupplier);
            }
          };
    }

    /** One delete file's contents, loaded by the first thread that needs them. */
    private static final class Memo {
      private @Nullable Object value;

      synchronized Object get(Supplier<?> load) {
        if (value == null) {
          value = load.get();
        }
        return value;
      }
    }

    /**
     * The key index of the snapshot's equality deletes, built once from every task's deletes, or
     * empty when they are not all by the same single integral column of an unpartitioned table
     * (then Iceberg's own filter applies them).
     */
    /** The snapshot's unfiltered plan, when the caller has one: the index then plans nothing. */
    synchronized void fullPlan(List<FileScanTask> tasks) {
      fullPlan = List.copyOf(tasks);
    }

    synchronized Optional<KeyDeletes> keyDeletes() {
      if (keyDeletes == null) {
        // Every data file of the snapshot, whatever a scan's filter: the index must hold every
        // equality delete that applies to any row read through it.
        List<FileScanTask> tasks = new ArrayList<>();
        if (fullPlan != null) {
          tasks.addAll(fullPlan);
        } else {
          try (CloseableIterable<FileScanTask> planned =
              table.newScan().useSnapshot(snapshotId).planFiles()) {
            planned.forEach(tasks::add);
          } catch (IOException e) {
            throw new UncheckedIOException("Planning a scan of " + table.name() + " failed", e);
          }
        }
        // A pool of its own: the caller may be a thread of a scan's pool, waiting here.
        ExecutorService readers =
            Executors.newFixedThreadPool(
                Math.max(1, Runtime.getRuntime().availableProcessors()),
                runnable -> {
                  Thread thread = new Thread(runnable, "srl-iceberg-deletes");
                  thread.setDaemon(true);
                  return thread;
                });
        try {
          keyDeletes = KeyDeletes.build(table, tasks, readers);
        } finally {
          readers.shutdownNow();
        }
      }
      return keyDeletes;
    }

    private InputFile inputFile(DeleteFile file) {
      return io.newInputFile(file.location());
    }

    GenericDeleteFilter filterFor(FileScanTask task, Schema tableSchema, Schema projection) {
      return new GenericDeleteFilter(io, task, tableSchema, projection) {
        @Override
        protected DeleteLoader newDeleteLoader() {
          return loader;
        }
      };
    }
  }

  /**
   * Equality deletes by one integral key column, as the highest data sequence number of a delete of
   * each key: a row of a data file with sequence number {@code s} is deleted iff some equality
   * delete with a higher sequence number holds its key (the rule of the Iceberg spec for
   * unpartitioned tables, where every equality delete is global). Memory: one entry per deleted
   * key.
   */
  static final class KeyDeletes {
    private final String column;
    private final LongMaxTable highestSequence;

    private KeyDeletes(String column, LongMaxTable highestSequence) {
      this.column = column;
      this.highestSequence = highestSequence;
    }

    String column() {
      return column;
    }

    boolean isEmpty() {
      return highestSequence.size() == 0;
    }

    boolean deletes(long key, long dataSequence) {
      return highestSequence.get(key) > dataSequence;
    }

    static Optional<KeyDeletes> build(Table table, List<FileScanTask> tasks, ExecutorService pool) {
      Map<String, DeleteFile> equality = new java.util.LinkedHashMap<>();
      Integer fieldId = null;
      for (FileScanTask task : tasks) {
        if (!task.spec().isUnpartitioned()) {
          return Optional.empty();
        }
        for (DeleteFile file : task.deletes()) {
          if (file.content() != FileContent.EQUALITY_DELETES) {
            continue;
          }
          List<Integer> ids = file.equalityFieldIds();
          if (ids == null
              || ids.size() != 1
              || (fieldId != null && !fieldId.equals(ids.get(0)))
              || file.format() != FileFormat.PARQUET
              || !table.specs().get(file.specId()).isUnpartitioned()) {
            return Optional.empty();
          }
          fieldId = ids.get(0);
          equality.putIfAbsent(file.location(), file);
        }
      }
      if (fieldId == null) {
        // No equality deletes: an index that deletes nothing, keyed by the first identifier field
        // (or any integral column) only so that rows can be looked up.
        Optional<String> key = integralColumn(table, table.schema().identifierFieldIds());
        return key.map(column -> new KeyDeletes(column, new LongMaxTable(0)));
      }
      Types.NestedField field = table.schema().findField(fieldId);
      if (field == null
          || (field.type().typeId() != Type.TypeID.LONG
              && field.type().typeId() != Type.TypeID.INTEGER)) {
        return Optional.empty();
      }
      Schema keyOnly = table.schema().select(field.name());
      List<Future<long[]>> reads = new ArrayList<>();
      for (DeleteFile file : equality.values()) {
        reads.add(pool.submit(() -> keys(table.io(), file, keyOnly)));
      }
      long deleteRows = 0;
      for (DeleteFile file : equality.values()) {
        deleteRows += file.recordCount();
      }
      LongMaxTable highest = new LongMaxTable(deleteRows);
      try {
        int i = 0;
        for (DeleteFile file : equality.values()) {
          long sequence = file.dataSequenceNumber();
          for (long key : reads.get(i++).get()) {
            highest.putMax(key, sequence);
          }
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("Interrupted while reading deletes of " + table.name(), e);
      } catch (ExecutionException e) {
        throw rethrow(e.getCause());
      }
      return Optional.of(new KeyDeletes(field.name(), highest));
    }

    private static Optional<String> integralColumn(Table table, java.util.Set<Integer> ids) {
      if (ids.size() != 1) {
        return Optional.empty();
      }
      Types.NestedField field = table.schema().findField(ids.iterator().next());
      return field != null
              && (field.type().typeId() == Type.TypeID.LONG
                  || field.type().typeId() == Type.TypeID.INTEGER)
          ? Optional.of(field.name())
          : Optional.empty();
    }

    private static long[] keys(FileIO io, DeleteFile file, Schema keyOnly) throws IOException {
      long[] keys = new long[(int) Math.min(Integer.MAX_VALUE - 8, file.recordCount())];
      int n = 0;
      try (CloseableIterable<Record> records =
          Parquet.read(io.newInputFile(file.location()))
              .project(keyOnly)
              .createReaderFunc(
                  fileSchema -> GenericParquetReaders.buildReader(keyOnly, fileSchema))
              .build()) {
        for (Record record : records) {
          if (n == keys.length) {
            keys = Arrays.copyOf(keys, Math.max(16, n * 2));
          }
          keys[n++] = ((Number) record.get(0)).longValue();
        }
      }
      return n == keys.length ? keys : Arrays.copyOf(keys, n);
    }
  }

  /** Iceberg's delete filter for a data file's position deletes alone, with the shared loader. */
  private static final class PositionDeletes extends DeleteFilter<Record> {
    private final CachedDeletes deletes;
    private final InternalRecordWrapper wrapper;

    PositionDeletes(
        String path,
        List<DeleteFile> positional,
        Schema tableSchema,
        Schema requested,
        CachedDeletes deletes) {
      super(path, positional, tableSchema, requested);
      this.deletes = deletes;
      this.wrapper = new InternalRecordWrapper(requiredSchema().asStruct());
    }

    @Override
    protected StructLike asStructLike(Record record) {
      return wrapper.wrap(record);
    }

    @Override
    protected InputFile getInputFile(String location) {
      return deletes.io.newInputFile(location);
    }

    @Override
    protected DeleteLoader newDeleteLoader() {
      return deletes.loader;
    }
  }

  /**
   * An open-addressing table from long keys to the highest long value put for them; absent keys
   * read as {@link Long#MIN_VALUE}. Unboxed: a CDC table's deletes number in the millions, and a
   * boxed map's lookups dominated a read.
   */
  static final class LongMaxTable {
    private static final long FREE = Long.MIN_VALUE;

    private long[] keys;
    private long[] values;
    private boolean hasFreeKey;
    private long freeKeyValue = Long.MIN_VALUE;
    private int size;

    LongMaxTable(long expected) {
      int capacity =
          Integer.highestOneBit((int) Math.min(1 << 30, Math.max(4, expected * 2)) - 1) << 1;
      keys = new long[capacity];
      values = new long[capacity];
      Arrays.fill(keys, FREE);
    }

    int size() {
      return size + (hasFreeKey ? 1 : 0);
    }

    void putMax(long key, long value) {
      if (key == FREE) {
        freeKeyValue = hasFreeKey ? Math.max(freeKeyValue, value) : value;
        hasFreeKey = true;
        return;
      }
      if ((size + 1) * 2L > keys.length) {
        grow();
      }
      int mask = keys.length - 1;
      int slot = mix(key) & mask;
      while (keys[slot] != FREE && keys[slot] != key) {
        slot = (slot + 1) & mask;
      }
      if (keys[slot] == FREE) {
        keys[slot] = key;
        values[slot] = value;
        size++;
      } else {
        values[slot] = Math.max(values[slot], value);
      }
    }

    long get(long key) {
      if (key == FREE) {
        return hasFreeKey ? freeKeyValue : Long.MIN_VALUE;
      }
      int mask = keys.length - 1;
      int slot = mix(key) & mask;
      while (keys[slot] != FREE) {
        if (keys[slot] == key) {
          return values[slot];
        }
        slot = (slot + 1) & mask;
      }
      return Long.MIN_VALUE;
    }

    private void grow() {
      long[] oldKeys = keys;
      long[] oldValues = values;
      keys = new long[oldKeys.length * 2];
      values = new long[oldKeys.length * 2];
      Arrays.fill(keys, FREE);
      size = 0;
      for (int i = 0; i < oldKeys.length; i++) {
        if (oldKeys[i] != FREE) {
          putMax(oldKeys[i], oldValues[i]);
        }
      }
    }

    private static int mix(long key) {
      // MurmurHash3's finaliser: keys that differ only in high bits still spread.
      long h = key;
      h ^= h >>> 33;
      h *= 0xFF51AFD7ED558CCDL;
      h ^= h >>> 33;
      h *= 0xC4CEB9FE1A85EC53L;
      h ^= h >>> 33;
      return (int) h;
    }
  }
}
