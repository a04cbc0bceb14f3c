package io.reliabilitylab.pipeline.broker.source;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/**
 * The state of a {@link DebeziumPublisher}'s connector, as a run record shows it (like a Kafka
 * Connect connector's status during and after a fault).
 */
@API(status = EXPERIMENTAL)
public enum ConnectorState {
  /** Built, never started. */
  NEW,
  /** The engine is starting: connecting to the source and loading offsets and schema history. */
  STARTING,
  /** The engine runs: snapshotting or reading the binlog, and publishing. */
  RUNNING,
  /** A stop was requested; the last batch is being acknowledged and offsets flushed. */
  STOPPING,
  /** Stopped with offsets flushed (on request, or by a poison record); start() resumes. */
  STOPPED,
  /**
   * The engine or the producer failed; see {@link DebeziumPublisher#failure()}; start() retries.
   */
  FAILED,
  /** Closed for good. */
  CLOSED;

  /** Whether the engine runs or is about to. */
  public boolean isActive() {
    return this == STARTING || this == RUNNING;
  }
}
