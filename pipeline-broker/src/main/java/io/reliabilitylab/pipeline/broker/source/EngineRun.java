package io.reliabilitylab.pipeline.broker.source;

import io.debezium.embedded.Connect;
import io.debezium.engine.DebeziumEngine;
import io.debezium.engine.RecordChangeEvent;
import io.debezium.engine.format.ChangeEventFormat;
import io.reliabilitylab.spi.data.SourcePosition;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.connect.source.SourceRecord;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** One engine lifetime: from a start to the end of its run, on a thread of its own. */
final class EngineRun {

  /** Logged under the publisher's name, where its other messages are. */
  private static final Logger LOG = LoggerFactory.getLogger(DebeziumPublisher.class);

  private static final Duration CLOSE_RETRY = Duration.ofMillis(50);

  /** Takes a batch of the engine's records; runs on the engine's thread. */
  interface BatchHandler {
    void handle(
        EngineRun run,
        List<RecordChangeEvent<SourceRecord>> records,
        DebeziumEngine.RecordCommitter<RecordChangeEvent<SourceRecord>> committer)
        throws InterruptedException;
  }

  /** Hears that the engine ended, whether stopped, failed or unable to start. */
  interface EndHandler {
    void ended(EngineRun run, boolean success, String message, @Nullable Throwable error);
  }

  final DebeziumEngine<RecordChangeEvent<SourceRecord>> engine;
  final Thread thread;
  final CompletableFuture<Void> taskStarted = new CompletableFuture<>();
  final CountDownLatch done = new CountDownLatch(1);
  final ChangeEncoder encoder = new ChangeEncoder();
  private final Duration stopTimeout;

  /** Set by a stop or a poison: later batches are neither published nor marked. */
  volatile boolean draining;

  /** The position of the last change seen (engine thread only), for the tombstone after it. */
  @Nullable SourcePosition lastChange;

  EngineRun(
      int generation,
      Properties engineProperties,
      Duration stopTimeout,
      BatchHandler onBatch,
      EndHandler onEnd) {
    this.stopTimeout = stopTimeout;
    this.engine =
        DebeziumEngine.create(ChangeEventFormat.of(Connect.class))
            .using(engineProperties)
            .using(
                new DebeziumEngine.ConnectorCallback() {
                  @Override
                  public void taskStarted() {
                    taskStarted.complete(null);
                  }
                })
            .using(
                (boolean success, String message, @Nullable Throwable error) ->
                    onEnd.ended(this, success, message, error))
            .notifying(
                (List<RecordChangeEvent<SourceRecord>> records,
                    DebeziumEngine.RecordCommitter<RecordChangeEvent<SourceRecord>> committer) ->
                    onBatch.handle(this, records, committer))
            .build();
    this.thread = new Thread(engine, "srl-debezium-engine-" + generation);
    thread.setDaemon(true);
  }

  /** Asks the engine to stop, retrying while its task is still starting. */
  void closeEngine() {
    long deadline = System.nanoTime() + stopTimeout.toNanos();
    while (true) {
      try {
        engine.close();
        return;
      } catch (IllegalStateException e) {
        String message = String.valueOf(e.getMessage());
        if (message.contains("already")) {
          return; // stopping on its own (a poison) or stopped
        }
        // "Cannot stop engine while tasks are starting": try again in a moment.
        if (System.nanoTime() > deadline) {
          throw new IllegalStateException(
              "The Debezium engine could not be stopped within " + stopTimeout.toMillis() + " ms",
              e);
        }
        sleepQuietly(CLOSE_RETRY);
      } catch (IOException e) {
        LOG.warn("Closing the Debezium engine: {}", e.toString());
        return;
      }
    }
  }

  /** Waits for the engine to end and its thread to finish. */
  void awaitEnded() {
    try {
      if (!done.await(stopTimeout.toMillis(), TimeUnit.MILLISECONDS)) {
        throw new IllegalStateException(
            "The Debezium engine did not end within " + stopTimeout.toMillis() + " ms");
      }
      thread.join(stopTimeout.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("Interrupted while waiting for the engine to end", e);
    }
  }

  private static void sleepQuietly(Duration duration) {
    try {
      TimeUnit.MILLISECONDS.sleep(duration.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("Interrupted while stopping the engine", e);
    }
  }
}
