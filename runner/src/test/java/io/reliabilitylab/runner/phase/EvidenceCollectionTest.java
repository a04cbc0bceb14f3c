package io.reliabilitylab.runner.phase;

import static org.assertj.core.api.Assertions.assertThat;

import io.reliabilitylab.record.Linkage;
import io.reliabilitylab.record.Quarantine;
import io.reliabilitylab.record.RunRecord;
import io.reliabilitylab.runner.ScenarioPlan;
import io.reliabilitylab.spi.check.DlqRecord;
import io.reliabilitylab.spi.check.LinkageRecord;
import io.reliabilitylab.spi.pipeline.RunEvidence;
import io.reliabilitylab.workload.WorkloadConfig;
import io.reliabilitylab.workload.WorkloadGenerator;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A pipeline's own evidence reaches the record through {@link RunEvidence} exactly as the pipeline
 * gave it, whatever the pipeline; without the capability the record holds none. (The broker
 * pipeline's answers are proven on the real stack by its ITs.)
 */
class EvidenceCollectionTest {

  private static final Instant T = Instant.parse("2026-11-29T12:00:00Z");

  @TempDir Path out;

  @Test
  void theBaselineObservationIsTheRecordsBaselineLinkage() throws Exception {
    LinkageRecord baseline = linkage("baseline");
    StandInPipeline pipeline =
        new StandInPipeline(
            Map.of(
                RunEvidence.Moment.BASELINE,
                RunEvidence.Observation.builder()
                    .linkage(baseline)
                    .judgedLinkage(List.of(baseline))
                    .build()));
    Scenario scenario = scenario(pipeline);

    RunEvidence.Observation observed = EvidenceCollection.atBaseline(scenario);

    assertThat(observed.judgedLinkage()).containsExactly(baseline);
    assertThat(pipeline.asked).containsExactly(RunEvidence.Moment.BASELINE);
    RunRecord record = finish(scenario);
    assertThat(record.linkage()).isEqualTo(new Linkage(baseline, null, null));
    assertThat(record.dlq()).isEmpty();
    assertThat(record.quarantine()).isNull();
  }

  @Test
  void theFinalObservationGivesTheLinkageDeadLettersAndQuarantineAsTheyWere() throws Exception {
    LinkageRecord repair = linkage("repair");
    LinkageRecord last = linkage("final");
    DlqRecord deadLetter = deadLetter();
    Map<String, Object> details = new LinkedHashMap<>();
    details.put("dlq_topic", "lab.orders.dlq");
    details.put("dlq_records", 1);
    StandInPipeline pipeline =
        new StandInPipeline(
            Map.of(
                RunEvidence.Moment.FINAL,
                RunEvidence.Observation.builder()
                    .linkage(last)
                    .repairLinkage(repair)
                    .judgedLinkage(List.of(repair, last))
                    .deadLetters(List.of(deadLetter))
                    .quarantine(
                        new RunEvidence.Quarantine(
                            "retained with repair replay recorded",
                            new RunEvidence.Replay(
                                "re-encode and republish", "lab.orders", 0, 41, 7),
                            details))
                    .build()));
    Scenario scenario = scenario(pipeline);

    EvidenceCollection.atEnd(scenario);

    RunRecord record = finish(scenario);
    assertThat(record.linkage()).isEqualTo(new Linkage(null, repair, last));
    assertThat(record.dlq()).containsExactly(deadLetter);
    assertThat(record.quarantine())
        .isEqualTo(
            Quarantine.of("retained with repair replay recorded")
                .withDetails(details)
                .withRepair(
                    "re-encode and republish",
                    new Quarantine.ProducedRecord("lab.orders", 0, 41, 7),
                    null));
    assertThat(record.timings()).containsKey("linkage");
  }

  @Test
  void anUnrepairedQuarantineHasNoRepairAndAPipelineWithoutTheCapabilityAddsNothing()
      throws Exception {
    StandInPipeline unrepaired =
        new StandInPipeline(
            Map.of(
                RunEvidence.Moment.FINAL,
                RunEvidence.Observation.builder()
                    .quarantine(
                        new RunEvidence.Quarantine("retained in dlq, not repaired", null, Map.of()))
                    .build()));
    Scenario withQuarantine = scenario(unrepaired);
    EvidenceCollection.atEnd(withQuarantine);
    assertThat(finish(withQuarantine).quarantine())
        .isEqualTo(Quarantine.of("retained in dlq, not repaired").withDetails(Map.of()));

    Scenario without = scenario(new StandInPipeline());
    assertThat(EvidenceCollection.atBaseline(without)).isEqualTo(RunEvidence.Observation.NONE);
    assertThat(EvidenceCollection.atEnd(without)).isEqualTo(RunEvidence.Observation.NONE);
    RunRecord record = finish(without);
    assertThat(record.linkage()).isEqualTo(Linkage.NONE);
    assertThat(record.quarantine()).isNull();
    assertThat(record.timings()).doesNotContainKey("linkage");
  }

  private Scenario scenario(StandInPipeline pipeline) throws Exception {
    Lab lab =
        new Lab(
            new StubSource(),
            out,
            List.of(),
            List.of(),
            List.of(),
            List.of(),
            Clock.systemUTC(),
            null);
    ScenarioPlan plan = ScenarioPlan.of("stand-in", "baseline", 1, 10);
    Scenario scenario =
        Scenario.begin(
            lab, plan, WorkloadGenerator.generate(WorkloadConfig.of(plan.events(), plan.seed())));
    scenario.started(pipeline.running());
    return scenario;
  }

  private static RunRecord finish(Scenario scenario) {
    return scenario.record().finishedAt(Instant.now()).build();
  }

  private static LinkageRecord linkage(String label) {
    return new LinkageRecord(
        label,
        T,
        "lab.orders",
        "lab-group",
        List.of(new LinkageRecord.PartitionOffset(0, 42, 42)),
        new LinkageRecord.CheckpointRef(3, "COMPLETED", null),
        Map.of("orders_current", new LinkageRecord.SnapshotRef(7, "job", 3L)));
  }

  private static DlqRecord deadLetter() {
    return new DlqRecord(
        "lab.orders.dlq",
        0,
        0,
        "lab.orders",
        0,
        17,
        T.toEpochMilli(),
        "invalid-utf8",
        "not UTF-8",
        T,
        1,
        "0".repeat(64),
        12,
        true);
  }
}
