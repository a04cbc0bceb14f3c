package io.reliabilitylab.testkit.simulated;

import io.reliabilitylab.spi.pipeline.SourceConnectorControl;
import java.time.Duration;
import java.util.Optional;

/**
 * The {@link SourceConnectorControl} of a {@link SimulatedBroker}: a view on the broker's state,
 * under the pipeline's monitor. It refuses a second start as the real publisher does, so that a
 * double start shows.
 */
final class SimulatedConnector implements SourceConnectorControl {

  private final SimulatedPipeline pipeline;
  private final SimulatedBroker broker;

  SimulatedConnector(SimulatedPipeline pipeline, SimulatedBroker broker) {
    this.pipeline = pipeline;
    this.broker = broker;
  }

  @Override
  public String status() {
    synchronized (pipeline) {
      return broker.connectorStatus;
    }
  }

  @Override
  public void stop() {
    synchronized (pipeline) {
      broker.connectorStatus = SimulatedBroker.STOPPED;
    }
  }

  @Override
  public void start() {
    Duration takes;
    synchronized (pipeline) {
      if (!SimulatedBroker.STOPPED.equals(broker.connectorStatus)) {
        // as the real publisher: a second start is refused, so a double start shows
        throw new IllegalStateException(
            "The publisher is " + broker.connectorStatus + ": stop() it first");
      }
      broker.connectorStarts++;
      takes = broker.startTakes;
      broker.connectorStatus = takes.isZero() ? SimulatedBroker.RUNNING : SimulatedBroker.STARTING;
    }
    if (!takes.isZero()) {
      sleepThroughInterrupts(takes);
      synchronized (pipeline) {
        broker.connectorStatus = SimulatedBroker.RUNNING;
      }
    }
  }

  @Override
  public long published() {
    synchronized (pipeline) {
      return broker.published;
    }
  }

  @Override
  public void corruptNext(long k, String faultId) {
    synchronized (pipeline) {
      if (k < 1) {
        throw new IllegalArgumentException("k counts from 1, got " + k);
      }
      if (broker.armed != null) {
        throw new IllegalStateException("a corruption is armed already");
      }
      broker.armed = new SimulatedBroker.Corruption(k, faultId);
    }
  }

  @Override
  public Optional<CorruptedRecord> corrupted(String faultId) {
    synchronized (pipeline) {
      return Optional.ofNullable(broker.corrupted.get(faultId));
    }
  }

  @Override
  public String markOffsets() {
    synchronized (pipeline) {
      String mark = "offsets-" + (broker.marks.size() + 1);
      broker.marks.put(mark, broker.lastPublished);
      return mark;
    }
  }

  @Override
  public void restartFrom(String mark) {
    synchronized (pipeline) {
      Long position = broker.marks.get(mark);
      if (position == null) {
        throw new IllegalArgumentException("no offsets mark " + mark + "; take one first");
      }
      broker.connectorStatus = SimulatedBroker.STOPPED;
      if (broker.rewindFails) {
        throw new IllegalStateException("cannot replace the offset file with " + mark);
      }
      broker.highestBeforeRewind = Math.max(broker.highestBeforeRewind, broker.lastPublished);
      broker.republished = 0;
      broker.lastPublished = position;
    }
    start();
  }

  @Override
  public long republished() {
    synchronized (pipeline) {
      return broker.republished;
    }
  }

  @Override
  public boolean caughtUp() {
    synchronized (pipeline) {
      return broker.highestBeforeRewind >= 0 && broker.lastPublished > broker.highestBeforeRewind;
    }
  }

  /** Like an engine start that does not heed interrupts; the interrupt is kept for later. */
  private static void sleepThroughInterrupts(Duration duration) {
    long deadline = System.nanoTime() + duration.toNanos();
    boolean interrupted = false;
    while (System.nanoTime() < deadline) {
      try {
        Thread.sleep(Math.max(1, (deadline - System.nanoTime()) / 1_000_000));
      } catch (InterruptedException e) {
        interrupted = true;
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }
}
