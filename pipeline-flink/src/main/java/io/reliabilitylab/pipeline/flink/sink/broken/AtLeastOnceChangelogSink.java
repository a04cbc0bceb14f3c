package io.reliabilitylab.pipeline.flink.sink.broken;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Objects;
import java.util.TreeMap;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.CheckpointListener;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.typeinfo.PrimitiveArrayTypeInfo;
import org.apache.flink.runtime.state.FunctionInitializationContext;
import org.apache.flink.runtime.state.FunctionSnapshotContext;
import org.apache.flink.streaming.api.checkpoint.CheckpointedFunction;
import org.apache.flink.streaming.api.functions.sink.RichSinkFunction;
import org.apache.flink.table.data.RowData;
import org.apache.flink.util.InstantiationUtil;
import org.apache.iceberg.AppendFiles;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.Table;
import org.apache.iceberg.flink.FlinkSchemaUtil;
import org.apache.iceberg.flink.TableLoader;
import org.apache.iceberg.flink.sink.RowDataTaskWriterFactory;
import org.apache.iceberg.io.TaskWriter;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * BROKEN on purpose: an at-least-once changelog sink that claims exactly-once. It follows the
 * checkpoint protocol as Iceberg's own sink does — a checkpoint's data files are staged in its
 * state and committed when the checkpoint completes, labelled with its id — except that its state
 * also keeps the files of the checkpoint it committed last (as if for a retry), and after a restore
 * it commits everything its state holds without asking the table what it has. Without faults its
 * table equals the reference sink's; after a restart the changes of the checkpoint before the one
 * it resumed from (and of that one, once it was committed) are in the changelog twice.
 */
@API(status = EXPERIMENTAL)
public final class AtLeastOnceChangelogSink extends RichSinkFunction<RowData>
    implements CheckpointedFunction, CheckpointListener {

  /** The snapshot summary property that marks this sink's commits. */
  public static final String SUMMARY_PROPERTY = "lab.broken-at-least-once";

  private static final long serialVersionUID = 1L;
  private static final long TARGET_FILE_SIZE = 128L << 20;
  private static final String FLINK_JOB_ID = "flink.job-id";
  private static final String MAX_COMMITTED_CHECKPOINT_ID = "flink.max-committed-checkpoint-id";
  private static final Logger LOG = LoggerFactory.getLogger(AtLeastOnceChangelogSink.class);

  private final TableLoader tableLoader;
  private transient @Nullable Table table;
  private transient @Nullable RowDataTaskWriterFactory writers;
  private transient @Nullable TaskWriter<RowData> writer;
  // data files by the checkpoint that staged them: the last committed checkpoint's and newer
  private transient NavigableMap<Long, List<DataFile>> staged = new TreeMap<>();
  private transient long lastCommitted;
  private transient @Nullable ListState<byte[]> stagedState;
  private transient @Nullable NavigableMap<Long, List<DataFile>> restored;

  /** A sink appending to the table {@code tableLoader} loads. */
  public AtLeastOnceChangelogSink(TableLoader tableLoader) {
    this.tableLoader = Objects.requireNonNull(tableLoader, "tableLoader");
  }

  @Override
  public void initializeState(FunctionInitializationContext context) throws Exception {
    stagedState =
        context
            .getOperatorStateStore()
            .getListState(
                new ListStateDescriptor<>(
                    "staged-data-files", PrimitiveArrayTypeInfo.BYTE_PRIMITIVE_ARRAY_TYPE_INFO));
    staged = new TreeMap<>();
    lastCommitted = context.getRestoredCheckpointId().orElse(0);
    if (context.isRestored()) {
      NavigableMap<Long, List<DataFile>> files = new TreeMap<>();
      for (byte[] bytes : stagedState.get()) {
        files.putAll(
            InstantiationUtil.<TreeMap<Long, List<DataFile>>>deserializeObject(
                bytes, getClass().getClassLoader()));
      }
      restored = files;
    }
  }

  @Override
  public void open(OpenContext openContext) throws IOException {
    tableLoader.open();
    Table loaded = tableLoader.loadTable();
    RowDataTaskWriterFactory factory =
        new RowDataTaskWriterFactory(
            loaded,
            FlinkSchemaUtil.convert(loaded.schema()),
            TARGET_FILE_SIZE,
            FileFormat.PARQUET,
            loaded.properties(),
            List.of(),
            false);
    factory.initialize(
        getRuntimeContext().getTaskInfo().getIndexOfThisSubtask(),
        getRuntimeContext().getTaskInfo().getAttemptNumber());
    table = loaded;
    writers = factory;
    writer = factory.create();
    NavigableMap<Long, List<DataFile>> toCommit = restored;
    if (toCommit != null && !toCommit.isEmpty()) {
      // THE BUG: Iceberg's committer first reads the table's last committed checkpoint of this job
      // and commits only what came after it; this sink commits all its restored files again.
      commit(toCommit, toCommit.lastKey(), "restored");
    }
    restored = null;
  }

  @Override
  public void invoke(RowData row, Context context) throws IOException {
    Objects.requireNonNull(writer).write(row);
  }

  @Override
  public void snapshotState(FunctionSnapshotContext context) throws Exception {
    List<DataFile> files = List.of(Objects.requireNonNull(writer).complete().dataFiles());
    writer = Objects.requireNonNull(writers).create();
    staged.put(context.getCheckpointId(), files);
    staged.headMap(lastCommitted, false).clear();
    ListState<byte[]> state = Objects.requireNonNull(stagedState);
    state.clear();
    state.add(InstantiationUtil.serializeObject(new TreeMap<>(staged)));
  }

  @Override
  public void notifyCheckpointComplete(long checkpointId) throws IOException {
    NavigableMap<Long, List<DataFile>> done =
        staged.subMap(lastCommitted, false, checkpointId, true);
    if (!done.isEmpty()) {
      commit(new TreeMap<>(done), checkpointId, "checkpoint " + checkpointId);
    }
    lastCommitted = Math.max(lastCommitted, checkpointId);
  }

  private void commit(Map<Long, List<DataFile>> files, long checkpointId, String trigger) {
    AppendFiles append = Objects.requireNonNull(table).newAppend();
    int count = 0;
    for (List<DataFile> checkpointFiles : files.values()) {
      for (DataFile file : checkpointFiles) {
        append.appendFile(file);
        count++;
      }
    }
    if (count == 0) {
      return;
    }
    append
        .set(FLINK_JOB_ID, getRuntimeContext().getJobInfo().getJobId().toHexString())
        .set(MAX_COMMITTED_CHECKPOINT_ID, Long.toString(checkpointId))
        .set(SUMMARY_PROPERTY, trigger)
        .commit();
    LOG.info("BROKEN at-least-once sink committed {} data files ({})", count, trigger);
  }

  @Override
  public void close() throws Exception {
    try {
      if (writer != null) {
        writer.abort();
      }
    } finally {
      tableLoader.close();
    }
  }
}
