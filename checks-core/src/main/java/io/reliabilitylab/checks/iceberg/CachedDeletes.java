package io.reliabilitylab.checks.iceberg;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Supplier;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.BaseDeleteLoader;
import org.apache.iceberg.data.DeleteLoader;
import org.apache.iceberg.data.GenericDeleteFilter;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.InputFile;
import org.jspecify.annotations.Nullable;

/**
 * Delete files read once per scan: Iceberg's own loader, with its cache hooks answered by a map
 * that lives as long as the reader of one snapshot.
 */
final class CachedDeletes {
  private final Table table;
  private final long snapshotId;
  final FileIO io;
  private final Map<String, Memo> loaded = new ConcurrentHashMap<>();
  private @Nullable Optional<KeyDeletes> keyDeletes;
  private @Nullable List<FileScanTask> fullPlan;
  final DeleteLoader loader;

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
   * empty when they are not all by the same single integral column of an unpartitioned table (then
   * Iceberg's own filter applies them).
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
