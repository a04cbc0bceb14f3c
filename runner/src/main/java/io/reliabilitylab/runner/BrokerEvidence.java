package io.reliabilitylab.runner;

import io.reliabilitylab.record.Quarantine;
import io.reliabilitylab.spi.check.DlqRecord;
import io.reliabilitylab.spi.check.LinkageRecord;
import io.reliabilitylab.spi.pipeline.BrokerControl;
import io.reliabilitylab.spi.pipeline.DeadLetterQueue;
import io.reliabilitylab.spi.pipeline.PipelineUnderTest;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * What a pipeline with a broker adds to a run's evidence: offsets ↔ checkpoint ↔ snapshot linkage
 * observations and the dead-letter topic with its repairs. On a pipeline without a broker every
 * answer is empty.
 */
final class BrokerEvidence {

  /** How the lab repairs a quarantined record (see DeadLetterQueue#repair). */
  static final String REPAIR_MODE =
      "decode the intended change from the quarantined bytes, re-encode it in the pipeline's wire"
          + " format, republish it with the primary key as the record key";

  private final @Nullable BrokerControl broker;
  private final @Nullable DeadLetterQueue deadLetters;

  private BrokerEvidence(@Nullable BrokerControl broker, @Nullable DeadLetterQueue deadLetters) {
    this.broker = broker;
    this.deadLetters = deadLetters;
  }

  static BrokerEvidence of(PipelineUnderTest pipeline) {
    return new BrokerEvidence(
        pipeline.capability(BrokerControl.class).orElse(null),
        pipeline.capability(DeadLetterQueue.class).orElse(null));
  }

  /** Whether the pipeline has a broker to observe. */
  boolean present() {
    return broker != null;
  }

  /** Observes the linkage now under a label; null without a broker. */
  @Nullable LinkageRecord observe(String label) throws Exception {
    return broker == null ? null : broker.observeLinkage(label);
  }

  /** The latest observation with a label, if any was made. */
  @Nullable LinkageRecord latest(String label) {
    if (broker == null) {
      return null;
    }
    LinkageRecord latest = null;
    for (LinkageRecord observation : broker.observations()) {
      if (observation.label().equals(label)) {
        latest = observation;
      }
    }
    return latest;
  }

  /**
   * The observations the linkage check judges, in time order: those labelled {@code baseline},
   * {@code repair} or {@code final} (observations a fault made while it broke something, a broker
   * that was down, are its evidence, not the pipeline's steady state).
   */
  List<LinkageRecord> linkage() {
    if (broker == null) {
      return List.of();
    }
    return broker.observations().stream()
        .filter(observation -> List.of("baseline", "repair", "final").contains(observation.label()))
        .toList();
  }

  /** Every record in the dead-letter topic; empty without one. */
  List<DlqRecord> deadLetters() throws Exception {
    return deadLetters == null ? List.of() : deadLetters.records();
  }

  /**
   * The quarantine section of the run record for the dead letters read (by {@link #deadLetters}),
   * or null when nothing was quarantined.
   */
  @Nullable Quarantine quarantine(List<DlqRecord> records) {
    if (deadLetters == null) {
      return null;
    }
    List<DeadLetterQueue.Repair> repairs = deadLetters.repairs();
    if (records.isEmpty() && repairs.isEmpty()) {
      return null;
    }
    DeadLetterQueue.Repair replayed =
        repairs.stream().filter(DeadLetterQueue.Repair::repaired).reduce((a, b) -> b).orElse(null);
    Quarantine section =
        Quarantine.of(
            replayed != null
                ? "retained with repair replay recorded"
                : "retained in " + deadLetters.topic() + ", not repaired");
    Map<String, @Nullable Object> details = new LinkedHashMap<>();
    details.put("dlq_topic", deadLetters.topic());
    details.put("dlq_records", records.size());
    for (int i = 0; i < repairs.size(); i++) {
      DeadLetterQueue.Repair repair = repairs.get(i);
      Map<String, @Nullable Object> one = new LinkedHashMap<>();
      one.put("original", repair.original());
      one.put("repaired", repair.repaired());
      one.put("reason", repair.reason());
      one.put("key", repair.key());
      one.put("event_id", repair.eventId());
      one.put("at", repair.at().toString());
      details.put("repair_" + (i + 1), one);
    }
    section = section.withDetails(details);
    if (replayed != null) {
      section =
          section.withRepair(
              REPAIR_MODE,
              new Quarantine.ProducedRecord(
                  replayed.topic(),
                  replayed.partition(),
                  replayed.offset(),
                  replayed.timestampMs()),
              null);
    }
    return section;
  }
}
