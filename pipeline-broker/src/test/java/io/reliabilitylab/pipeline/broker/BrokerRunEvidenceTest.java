package io.reliabilitylab.pipeline.broker;

import static org.assertj.core.api.Assertions.assertThat;

import io.reliabilitylab.spi.check.DlqRecord;
import io.reliabilitylab.spi.check.LinkageRecord;
import io.reliabilitylab.spi.pipeline.BrokerControl;
import io.reliabilitylab.spi.pipeline.DeadLetterQueue;
import io.reliabilitylab.spi.pipeline.RunEvidence;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * What the broker pipeline answers the runner, on a stand-in broker and dead-letter topic (the real
 * ones are proven by {@code BrokerRunCommandIT}): linkage observed under the moment's label, the
 * steady-state observations judged, and at the end the dead letters and their quarantine.
 */
class BrokerRunEvidenceTest {

  private static final Instant T = Instant.parse("2026-11-29T12:00:00Z");

  private final StandInBroker broker = new StandInBroker();
  private final StandInDeadLetters deadLetters = new StandInDeadLetters();
  private final BrokerRunEvidence evidence = new BrokerRunEvidence(broker, deadLetters);

  @Test
  void atTheBaselineOnlyTheLinkageIsObservedAndAFaultsOwnObservationsAreNotJudged()
      throws Exception {
    broker.observations.add(linkage("broker-down"));

    RunEvidence.Observation baseline = evidence.observe(RunEvidence.Moment.BASELINE);

    assertThat(baseline.linkage().label()).isEqualTo("baseline");
    assertThat(baseline.judgedLinkage())
        .extracting(LinkageRecord::label)
        .containsExactly("baseline");
    assertThat(baseline.deadLetters()).isEmpty();
    assertThat(baseline.quarantine()).isNull();
    assertThat(deadLetters.reads).isZero();
  }

  @Test
  void atTheEndTheDeadLettersAndTheLatestRepairReplayAreReported() throws Exception {
    broker.observations.add(linkage("repair"));
    deadLetters.records.add(deadLetter());
    deadLetters.repairs.add(repair(false, -1));
    deadLetters.repairs.add(repair(true, 41));

    RunEvidence.Observation end = evidence.observe(RunEvidence.Moment.FINAL);

    assertThat(end.linkage().label()).isEqualTo("final");
    assertThat(end.repairLinkage().label()).isEqualTo("repair");
    assertThat(end.judgedLinkage())
        .extracting(LinkageRecord::label)
        .containsExactly("repair", "final");
    assertThat(end.deadLetters()).hasSize(1);
    RunEvidence.Quarantine quarantine = end.quarantine();
    assertThat(quarantine.state()).isEqualTo("retained with repair replay recorded");
    assertThat(quarantine.replay())
        .isEqualTo(
            new RunEvidence.Replay(BrokerRunEvidence.REPAIR_MODE, "lab.orders", 0, 41, 1_000));
    assertThat(quarantine.details())
        .containsEntry("dlq_topic", "lab.orders.dlq")
        .containsEntry("dlq_records", 1)
        .containsKeys("repair_1", "repair_2");
  }

  @Test
  void anUnrepairedDeadLetterIsRetainedAndNothingQuarantinedMeansNoSection() throws Exception {
    assertThat(evidence.observe(RunEvidence.Moment.FINAL).quarantine()).isNull();

    deadLetters.records.add(deadLetter());
    RunEvidence.Quarantine retained = evidence.observe(RunEvidence.Moment.FINAL).quarantine();
    assertThat(retained.state()).isEqualTo("retained in lab.orders.dlq, not repaired");
    assertThat(retained.replay()).isNull();
  }

  private static LinkageRecord linkage(String label) {
    return new LinkageRecord(label, T, "lab.orders", "lab", List.of(), null, Map.of());
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

  private static DeadLetterQueue.Repair repair(boolean repaired, long offset) {
    return new DeadLetterQueue.Repair(
        "lab.orders/0@17",
        repaired,
        repaired ? "recovered order 7" : "no change recovered",
        repaired ? "lab.orders" : "",
        repaired ? 0 : -1,
        offset,
        repaired ? 1_000 : -1,
        "7",
        repaired ? 70L : null,
        T);
  }

  private static final class StandInBroker implements BrokerControl {
    final List<LinkageRecord> observations = new ArrayList<>();

    @Override
    public void stop() {}

    @Override
    public void start() {}

    @Override
    public LinkageRecord observeLinkage(String label) {
      LinkageRecord observed = linkage(label);
      observations.add(observed);
      return observed;
    }

    @Override
    public List<LinkageRecord> observations() {
      return List.copyOf(observations);
    }
  }

  private static final class StandInDeadLetters implements DeadLetterQueue {
    final List<DlqRecord> records = new ArrayList<>();
    final List<Repair> repairs = new ArrayList<>();
    int reads;

    @Override
    public String topic() {
      return "lab.orders.dlq";
    }

    @Override
    public List<DlqRecord> records() {
      reads++;
      return List.copyOf(records);
    }

    @Override
    public Repair repair(DlqRecord record) {
      throw new UnsupportedOperationException("the runner never repairs");
    }

    @Override
    public List<Repair> repairs() {
      return List.copyOf(repairs);
    }
  }
}
