package io.reliabilitylab.runner;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.reliabilitylab.source.jdbc.CdcSource;
import io.reliabilitylab.source.jdbc.ChangeWriter;
import io.reliabilitylab.source.jdbc.WriterSettings;
import io.reliabilitylab.workload.SourceTransaction;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apiguardian.api.API;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes part of a workload on a thread of its own while the lab watches the pipeline (a fault
 * firing, a throttle, a compaction). Closing it stops the writer and waits for it, so that a write
 * still in flight cannot land in the next scenario's freshly reset table.
 *
 * <pre>{@code
 * try (BackgroundWrites writes = new BackgroundWrites("lab-workload-writer", timeout)) {
 *   Future<?> writing = writes.submit(() -> BackgroundWrites.paced(source, rest, span).write(rest));
 *   ... // inject, observe
 *   writes.await(writing);
 * }
 * }</pre>
 */
@API(status = INTERNAL)
public final class BackgroundWrites implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(BackgroundWrites.class);

  private static final double MIN_EVENTS_PER_SECOND = 50;
  private static final Duration STOP_WAIT = Duration.ofSeconds(30);

  private final ExecutorService writer;
  private final Duration deadline;

  /** A writer thread named {@code threadName} whose writes must finish within {@code deadline}. */
  public BackgroundWrites(String threadName, Duration deadline) {
    this.writer = Executors.newSingleThreadExecutor(r -> new Thread(r, threadName));
    this.deadline = deadline;
  }

  /**
   * A writer that spreads {@code transactions} over about {@code span}, so they race the pipeline.
   */
  public static ChangeWriter paced(
      CdcSource source, List<SourceTransaction> transactions, Duration span) {
    long changes = transactions.stream().mapToLong(t -> t.changes().size()).sum();
    double perSecond = Math.max(MIN_EVENTS_PER_SECOND, changes * 1000.0 / span.toMillis());
    return source.writer(WriterSettings.orders().eventsPerSecond(perSecond));
  }

  /** Starts {@code writes} on the writer thread. */
  public <T> Future<T> submit(Callable<T> writes) {
    return writer.submit(writes);
  }

  /**
   * Waits for writes; past the deadline the run stops with an error naming the writes (not the
   * pipeline, which a timeout elsewhere means).
   */
  public <T> T await(Future<T> writing) throws Exception {
    try {
      return writing.get(deadline.toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      throw new IllegalStateException(
          "the workload writer did not finish its writes within "
              + deadline.toSeconds()
              + " s: the source database is not taking them",
          e);
    }
  }

  @Override
  public void close() throws InterruptedException {
    writer.shutdownNow();
    if (!writer.awaitTermination(STOP_WAIT.toSeconds(), TimeUnit.SECONDS)) {
      LOG.warn("The workload writer did not stop within {} s", STOP_WAIT.toSeconds());
    }
  }
}
