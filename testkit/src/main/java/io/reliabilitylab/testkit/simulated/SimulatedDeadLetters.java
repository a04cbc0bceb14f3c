package io.reliabilitylab.testkit.simulated;

import io.reliabilitylab.spi.check.DlqRecord;
import io.reliabilitylab.spi.pipeline.DeadLetterQueue;
import java.time.Instant;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The {@link DeadLetterQueue} of a {@link SimulatedBroker}: the records the job quarantined, and a
 * repair that republishes a corrupted record without its corrupted prefix. Unreachable while the
 * broker is stopped.
 */
final class SimulatedDeadLetters implements DeadLetterQueue {

  private final SimulatedPipeline pipeline;
  private final SimulatedBroker broker;

  SimulatedDeadLetters(SimulatedPipeline pipeline, SimulatedBroker broker) {
    this.pipeline = pipeline;
    this.broker = broker;
  }

  @Override
  public String topic() {
    return SimulatedBroker.DLQ_TOPIC;
  }

  @Override
  public List<DlqRecord> records() throws Exception {
    synchronized (pipeline) {
      broker.requireUp();
      return List.copyOf(broker.dlq);
    }
  }

  @Override
  public Repair repair(DlqRecord record) throws Exception {
    synchronized (pipeline) {
      broker.requireUp();
      String original =
          record.originalTopic() + "/" + record.originalPartition() + "@" + record.originalOffset();
      SimulatedBroker.@Nullable TopicRecord source =
          record.originalOffset() >= 0 && record.originalOffset() < broker.topic.size()
              ? broker.topic.get((int) record.originalOffset())
              : null;
      Repair repair;
      if (broker.repairFails || source == null || !source.corrupted()) {
        repair =
            new Repair(
                original,
                false,
                "the value does not decode to a change after the corrupted prefix",
                "",
                -1,
                -1,
                -1,
                null,
                null,
                Instant.now());
      } else {
        SimulatedBroker.TopicRecord republishedRecord =
            broker.append(source.position(), false, SimulatedBroker.json(source.position()));
        repair =
            new Repair(
                original,
                true,
                "recovered the update of order " + source.position(),
                SimulatedBroker.TOPIC,
                0,
                republishedRecord.offset(),
                republishedRecord.timestampMs(),
                SimulatedBroker.key(source.position()),
                source.position(),
                Instant.now());
      }
      broker.repairs.add(repair);
      return repair;
    }
  }

  @Override
  public List<Repair> repairs() {
    synchronized (pipeline) {
      return List.copyOf(broker.repairs);
    }
  }
}
