package io.reliabilitylab.runner.phase;

import io.reliabilitylab.record.Quarantine;
import io.reliabilitylab.record.RunRecord;
import io.reliabilitylab.spi.pipeline.RunEvidence;
import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * Asks the pipeline for the evidence it adds beyond its tables ({@link RunEvidence}: linkage, dead
 * letters, quarantine) and records the answer as it is; a pipeline that does not offer it adds
 * nothing.
 */
final class EvidenceCollection {

  private EvidenceCollection() {}

  /** What the pipeline shows once the baseline caught up; its linkage is the baseline's. */
  static RunEvidence.Observation atBaseline(Scenario scenario) throws Exception {
    RunEvidence evidence = evidence(scenario);
    if (evidence == null) {
      return RunEvidence.Observation.NONE;
    }
    RunEvidence.Observation observation = evidence.observe(RunEvidence.Moment.BASELINE);
    scenario.record().baselineLinkage(observation.linkage());
    return observation;
  }

  /**
   * What the pipeline shows once the whole workload caught up: the final and repair linkage, the
   * dead letters (payloads as SHA-256 and length only) and the quarantine; timed as {@code
   * linkage}.
   */
  static RunEvidence.Observation atEnd(Scenario scenario) throws Exception {
    RunEvidence evidence = evidence(scenario);
    if (evidence == null) {
      return RunEvidence.Observation.NONE;
    }
    Instant observedAt = scenario.clock().instant();
    RunEvidence.Observation observation = evidence.observe(RunEvidence.Moment.FINAL);
    scenario.timing("linkage", observedAt);
    record(observation, scenario.record());
    return observation;
  }

  /** Adds a final observation to the record. */
  static void record(RunEvidence.Observation observation, RunRecord.Builder record) {
    record.finalLinkage(observation.linkage()).repairLinkage(observation.repairLinkage());
    observation.deadLetters().forEach(record::dlqRecord);
    record.quarantine(quarantine(observation.quarantine()));
  }

  private static @Nullable Quarantine quarantine(RunEvidence.@Nullable Quarantine observed) {
    if (observed == null) {
      return null;
    }
    Quarantine section = Quarantine.of(observed.state()).withDetails(observed.details());
    RunEvidence.Replay replay = observed.replay();
    if (replay == null) {
      return section;
    }
    return section.withRepair(
        replay.mode(),
        new Quarantine.ProducedRecord(
            replay.topic(), replay.partition(), replay.offset(), replay.timestampMs()),
        null);
  }

  private static @Nullable RunEvidence evidence(Scenario scenario) {
    return scenario.running().pipeline().capability(RunEvidence.class).orElse(null);
  }
}
