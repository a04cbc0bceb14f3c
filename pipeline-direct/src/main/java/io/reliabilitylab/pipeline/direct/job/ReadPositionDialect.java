package io.reliabilitylab.pipeline.direct.job;

import java.time.Duration;
import org.apache.flink.cdc.connectors.base.source.meta.offset.Offset;
import org.apache.flink.cdc.connectors.base.source.meta.split.SourceSplitBase;
import org.apache.flink.cdc.connectors.base.source.reader.external.FetchTask;
import org.apache.flink.cdc.connectors.postgres.source.PostgresDialect;
import org.apache.flink.cdc.connectors.postgres.source.config.PostgresSourceConfig;
import org.apache.flink.cdc.connectors.postgres.source.fetch.PostgresStreamFetchTask;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * BROKEN on purpose ({@code broken-source-commits-read-position}): the PostgreSQL source confirms
 * to its slot what its reader has read, every {@link #CONFIRM_INTERVAL} and at every completed
 * checkpoint, not what a checkpoint stored — as a Debezium engine flushing its own offsets inside a
 * Flink source would, as Flink CDC did before apache/flink-cdc#2539, and as Flink CDC 3.5.0 still
 * does once for the checkpoints a reader took before it had the stream split ({@link
 * CheckpointOffsetDialect} says how). Faithful as long as nothing restores; a restore then asks for
 * the checkpoint's position, PostgreSQL starts the stream at the slot's, and the changes read since
 * the checkpoint are gone. Confirming on a timer makes that certain whenever the workload wrote
 * between the restored checkpoint and the failure, where the 3.5.0 path alone needs a failure in
 * the first checkpoints of streaming (CI met runs with none).
 */
final class ReadPositionDialect extends PostgresDialect {

  private static final long serialVersionUID = 1L;

  /** How often the reader's position is confirmed, as a short Debezium offset-flush interval. */
  static final Duration CONFIRM_INTERVAL = Duration.ofMillis(100);

  /** How long a confirming thread waits for a stream task that was created but never ran. */
  private static final Duration START_WAIT = Duration.ofMinutes(2);

  private static final Logger LOG = LoggerFactory.getLogger(ReadPositionDialect.class);

  ReadPositionDialect(PostgresSourceConfig sourceConfig) {
    super(sourceConfig);
  }

  @Override
  public FetchTask<SourceSplitBase> createFetchTask(SourceSplitBase split) {
    FetchTask<SourceSplitBase> task = super.createFetchTask(split);
    if (task instanceof PostgresStreamFetchTask stream) {
      Thread confirming =
          new Thread(() -> confirmWhileRunning(stream), "srl-confirm-read-position");
      // a daemon, and it ends with its task: a restarted reader creates a new task and thread
      confirming.setDaemon(true);
      confirming.start();
    }
    return task;
  }

  @Override
  public void notifyCheckpointComplete(long checkpointId, @Nullable Offset offset)
      throws Exception {
    synchronized (this) {
      // no offset: the stream task confirms its reader's current commit LSN
      super.notifyCheckpointComplete(checkpointId, null);
    }
  }

  private void confirmWhileRunning(PostgresStreamFetchTask stream) {
    long startBy = System.nanoTime() + START_WAIT.toNanos();
    boolean ran = false;
    try {
      while (ran ? stream.isRunning() : System.nanoTime() < startBy) {
        Thread.sleep(CONFIRM_INTERVAL.toMillis());
        if (stream.isRunning()) {
          ran = true;
          synchronized (this) {
            stream.commitCurrentOffset(null);
          }
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (RuntimeException e) {
      // the task is failing or closing; its restart creates a new one
      LOG.debug("Stopped confirming the reader's position: {}", e.toString());
    }
  }
}
