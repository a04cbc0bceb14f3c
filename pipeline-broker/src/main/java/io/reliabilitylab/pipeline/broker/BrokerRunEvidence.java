package io.reliabilitylab.pipeline.broker;

import io.reliabilitylab.spi.check.DlqRecord;
import io.reliabilitylab.spi.check.LinkageRecord;
import io.reliabilitylab.spi.pipeline.BrokerControl;
import io.reliabilitylab.spi.pipeline.DeadLetterQueue;
import io.reliabilitylab.spi.pipeline.RunEvidence;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * What the broker pipeline adds to a run's record: the offsets ↔ checkpoint ↔ snapshot linkage at
 * the baseline and at the end, and at the end the dead-letter topic with its repairs.
 */
final class BrokerRunEvidence implements RunEvidence {

  /** How the lab repairs a quarantined record (see {@link DeadLetterQueue#repair}). */
  static final String REPAIR_MODE =
      "decode the intended change from the quarantined bytes, re-encode it in the pipeline's wire"
          + " format, republish it with the primary key as the record key";

  /**
   * The observations the linkage check judges: those of the pipeline's steady state, not those a
   * fault made while it broke something (a broker that was down is its evidence).
   */
  private static final Set<String> JUDGED_LABELS = Set.of("baseline", "repair", "final");

  private final BrokerControl broker;
  private final DeadLetterQueue deadLetters;

  BrokerRunEvidence(BrokerControl broker, DeadLetterQueue deadLetters) {
    this.broker = broker;
    this.deadLetters = deadLetters;
  }

  @Override
  public Observation observe(Moment moment) throws Exception {
    Observation.Builder observation =
        Observation.builder().linkage(broker.observeLinkage(moment.label()));
    if (moment == Moment.FINAL) {
      List<DlqRecord> records = deadLetters.records();
      observation
          .repairLinkage(latest("repair"))
          .deadLetters(records)
          .quarantine(quarantine(records));
    }
    return observation.judgedLinkage(judged()).build();
  }

  private List<LinkageRecord> judged() {
    return broker.observations().stream()
        .filter(observation -> JUDGED_LABELS.contains(observation.label()))
        .toList();
  }

  private @Nullable LinkageRecord latest(String label) {
    LinkageRecord latest = null;
    for (LinkageRecord observation : broker.observations()) {
      if (observation.label().equals(label)) {
        latest = observation;
      }
    }
    return latest;
  }

  /** The quarantine section for the dead letters read, or null when nothing was quarantined. */
  private @Nullable Quarantine quarantine(List<DlqRecord> records) {
    List<DeadLetterQueue.Repair> repairs = deadLetters.repairs();
    if (records.isEmpty() && repairs.isEmpty()) {
      return null;
    }
    DeadLetterQueue.Repair replayed =
        repairs.stream().filter(DeadLetterQueue.Repair::repaired).reduce((a, b) -> b).orElse(null);
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
    if (replayed == null) {
      return new Quarantine("retained in " + deadLetters.topic() + ", not repaired", null, details);
    }
    return new Quarantine(
        "retained with repair replay recorded",
        new Replay(
            REPAIR_MODE,
            replayed.topic(),
            replayed.partition(),
            replayed.offset(),
            replayed.timestampMs()),
        details);
  }
}
