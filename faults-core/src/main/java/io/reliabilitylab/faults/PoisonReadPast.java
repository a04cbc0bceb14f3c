package io.reliabilitylab.faults;

import io.reliabilitylab.spi.check.LinkageRecord;
import io.reliabilitylab.spi.pipeline.BrokerControl;
import io.reliabilitylab.spi.pipeline.SourceConnectorControl.CorruptedRecord;
import java.time.Duration;

/**
 * Whether the job's consumer group committed an offset past the corrupted record, so the job read
 * it: looked at once a second (each look is a linkage observation in the record).
 */
final class PoisonReadPast {
  private static final long EVERY_NANOS = Duration.ofSeconds(1).toNanos();

  private final BrokerControl broker;
  private final CorruptedRecord corrupted;
  private long nextLook = System.nanoTime() + EVERY_NANOS;
  private String seen = "";

  PoisonReadPast(BrokerControl broker, CorruptedRecord corrupted) {
    this.broker = broker;
    this.corrupted = corrupted;
  }

  boolean check() throws Exception {
    if (System.nanoTime() < nextLook) {
      return false;
    }
    nextLook = System.nanoTime() + EVERY_NANOS;
    LinkageRecord linkage = broker.observeLinkage("poison-read-past");
    if (!linkage.topic().equals(corrupted.topic())) {
      return false;
    }
    LinkageRecord.CheckpointRef checkpoint = linkage.checkpoint();
    for (LinkageRecord.PartitionOffset offset : linkage.offsets()) {
      if (offset.partition() == corrupted.partition()
          && offset.committedOffset() > corrupted.offset()) {
        seen =
            "group "
                + linkage.consumerGroup()
                + " committed offset "
                + offset.committedOffset()
                + " of "
                + corrupted.topic()
                + "/"
                + corrupted.partition()
                + (checkpoint == null ? "" : ", latest checkpoint " + checkpoint.id());
        return true;
      }
    }
    return false;
  }

  String describe() {
    return seen;
  }
}
