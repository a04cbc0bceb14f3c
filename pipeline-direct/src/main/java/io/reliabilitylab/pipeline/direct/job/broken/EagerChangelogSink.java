package io.reliabilitylab.pipeline.direct.job.broken;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.Objects;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.iceberg.AppendFiles;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.Table;
import org.apache.iceberg.flink.TableLoader;
import org.apache.iceberg.flink.sink.RowDataTaskWriterFactory;
import org.apache.iceberg.io.TaskWriter;
import org.apache.iceberg.io.WriteResult;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * A BROKEN changelog writer, for negative controls only: it appends every few rows straight to the
 * Iceberg table, ignoring Flink's checkpoints. After a restart the source replays from the last
 * completed checkpoint and the rows this writer committed since are appended a second time — the
 * classic "re-emits a restored epoch" defect. The lab's event-ID audit must catch it.
 */
@API(status = INTERNAL)
public final class EagerChangelogSink implements Sink<RowData> {

  private static final long serialVersionUID = 1L;
  private static final long TARGET_FILE_SIZE = 128L * 1024 * 1024;

  private final TableLoader tableLoader;
  private final RowType rowType;
  private final int rowsPerCommit;

  /**
   * @param tableLoader loads the changelog table
   * @param rowType the Flink row type of the changelog rows
   * @param rowsPerCommit how many rows each eager commit holds
   */
  public EagerChangelogSink(TableLoader tableLoader, RowType rowType, int rowsPerCommit) {
    this.tableLoader = Objects.requireNonNull(tableLoader, "tableLoader");
    this.rowType = Objects.requireNonNull(rowType, "rowType");
    if (rowsPerCommit < 1) {
      throw new IllegalArgumentException("rowsPerCommit must be >= 1, got " + rowsPerCommit);
    }
    this.rowsPerCommit = rowsPerCommit;
  }

  @Override
  @SuppressWarnings("deprecation") // Flink 1.20's Sink still declares this as its abstract method
  public SinkWriter<RowData> createWriter(InitContext context) {
    TableLoader loader = tableLoader.clone();
    loader.open();
    return new Writer(loader, rowType, rowsPerCommit, context.getSubtaskId());
  }

  /** Commits its rows to the table every {@code rowsPerCommit} rows and at each flush. */
  private static final class Writer implements SinkWriter<RowData> {
    private final TableLoader loader;
    private final Table table;
    private final RowDataTaskWriterFactory factory;
    private final int rowsPerCommit;
    private @Nullable TaskWriter<RowData> open;
    private int rows;

    Writer(TableLoader loader, RowType rowType, int rowsPerCommit, int subtask) {
      this.loader = loader;
      this.table = loader.loadTable();
      this.rowsPerCommit = rowsPerCommit;
      this.factory =
          new RowDataTaskWriterFactory(
              table, rowType, TARGET_FILE_SIZE, FileFormat.PARQUET, Map.of(), null, false);
      // The attempt id keeps file names apart across restarts.
      factory.initialize(subtask, (int) (System.nanoTime() & 0x7fffffff));
    }

    @Override
    public void write(RowData element, Context context) throws IOException {
      if (open == null) {
        open = factory.create();
      }
      open.write(element);
      if (++rows >= rowsPerCommit) {
        commit();
      }
    }

    @Override
    public void flush(boolean endOfInput) throws IOException {
      commit();
    }

    private void commit() throws IOException {
      if (open == null) {
        return;
      }
      WriteResult result = open.complete();
      open = null;
      rows = 0;
      if (result.dataFiles().length == 0) {
        return;
      }
      table.refresh();
      AppendFiles append = table.newAppend();
      for (DataFile file : result.dataFiles()) {
        append.appendFile(file);
      }
      append.commit();
    }

    @Override
    public void close() throws Exception {
      try {
        if (open != null) {
          open.abort();
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      } finally {
        loader.close();
      }
    }
  }
}
