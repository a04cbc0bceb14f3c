package io.reliabilitylab.checks;

import static org.assertj.core.api.Assertions.assertThat;

import io.reliabilitylab.spi.check.CheckResult;
import io.reliabilitylab.spi.check.EvidenceSample;
import io.reliabilitylab.spi.check.LinkageRecord;
import io.reliabilitylab.spi.check.LinkageRecord.CheckpointRef;
import io.reliabilitylab.spi.check.LinkageRecord.PartitionOffset;
import io.reliabilitylab.spi.check.LinkageRecord.SnapshotRef;
import io.reliabilitylab.spi.check.Verdict;
import io.reliabilitylab.spi.data.DeliverySemantics;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Assume;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

/**
 * Random faithful linkage sequences pass; any single defect applied to one fails and is named.
 *
 * <p>A faithful broker sequence: per partition the committed and log-end offsets never decrease,
 * committed never exceeds log-end and equals it at the end; checkpoint ids never decrease, earlier
 * checkpoints may have failed, the last completed; each table's committing checkpoint never
 * decreases, trails its record's checkpoint and equals the last one at the end.
 */
class OffsetCheckpointSnapshotLinkageProperties {

  private static final List<String> TABLES = List.of("orders_current", "orders_changelog");

  private final OffsetCheckpointSnapshotLinkageCheck check =
      new OffsetCheckpointSnapshotLinkageCheck();

  /** Raw draws for one sequence; {@link #records()} builds it. */
  private record Draw(
      String topic,
      int tables,
      List<List<Long>> offsets,
      List<Long> checkpoints,
      List<Integer> snapshotTrail,
      List<String> statuses) {

    List<LinkageRecord> records() {
      int n = checkpoints.size();
      List<Long> checkpointIds = checkpoints.stream().sorted().toList();
      List<List<Long>> sortedOffsets =
          offsets.stream().map(values -> values.stream().sorted().toList()).toList();
      Map<String, Long> committedBy = new LinkedHashMap<>();
      List<LinkageRecord> records = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        boolean last = i == n - 1;
        List<PartitionOffset> partitionOffsets = new ArrayList<>();
        for (int p = 0; p < sortedOffsets.size(); p++) {
          // 2n sorted values: the first n are committed offsets, the last n log-end offsets
          List<Long> values = sortedOffsets.get(p);
          long logEnd = values.get(n + i);
          long committed = last ? logEnd : values.get(i);
          partitionOffsets.add(new PartitionOffset(p, committed, logEnd));
        }
        long checkpointId = checkpointIds.get(i);
        CheckpointRef checkpoint =
            new CheckpointRef(checkpointId, last ? "COMPLETED" : statuses.get(i), null);
        Map<String, SnapshotRef> snapshots = new LinkedHashMap<>();
        for (int t = 0; t < tables; t++) {
          String table = TABLES.get(t);
          long by =
              last
                  ? checkpointId
                  : Math.max(
                      committedBy.getOrDefault(table, Long.MIN_VALUE),
                      checkpointId - snapshotTrail.get(i));
          committedBy.put(table, by);
          snapshots.put(table, new SnapshotRef(1_000L * i + t, BrokerFixture.JOB, by));
        }
        records.add(
            BrokerFixture.record(
                i == 0 ? "baseline" : last ? "final" : "step-" + i,
                10 * i,
                topic,
                partitionOffsets,
                checkpoint,
                snapshots));
      }
      return records;
    }
  }

  @Provide
  Arbitrary<List<LinkageRecord>> brokerRuns() {
    return runs(BrokerFixture.TOPIC, 1, 4);
  }

  @Provide
  Arbitrary<List<LinkageRecord>> directRuns() {
    return runs("", 0, 0);
  }

  private static Arbitrary<List<LinkageRecord>> runs(
      String topic, int minPartitions, int maxPartitions) {
    return Combinators.combine(
            Arbitraries.integers().between(1, 5),
            Arbitraries.integers().between(minPartitions, maxPartitions),
            Arbitraries.integers().between(1, TABLES.size()))
        .flatAs(
            (n, partitions, tables) ->
                Combinators.combine(
                        Arbitraries.longs()
                            .between(1, 1_000)
                            .list()
                            .ofSize(2 * n)
                            .list()
                            .ofSize(partitions),
                        Arbitraries.longs().between(1, 10_000).list().ofSize(n),
                        Arbitraries.integers().between(0, 2).list().ofSize(n),
                        Arbitraries.of("COMPLETED", "FAILED", "IN_PROGRESS").list().ofSize(n))
                    .as(
                        (offsets, checkpoints, trail, statuses) ->
                            new Draw(topic, tables, offsets, checkpoints, trail, statuses)
                                .records()));
  }

  private CheckResult judge(List<LinkageRecord> records, DeliverySemantics semantics) {
    return check.check(
        Fixture.context(semantics, Path.of("unused")).linkage(records).sampleLimit(1_000).build());
  }

  @Property(tries = 300)
  void faithfulBrokerRunsPass(
      @ForAll("brokerRuns") List<LinkageRecord> records, @ForAll DeliverySemantics semantics) {
    CheckResult result = judge(records, semantics);

    assertThat(result.verdict())
        .as("%s; %s", result.summary(), result.evidence())
        .isEqualTo(Verdict.PASSED);
    assertThat(result.evidence().counts())
        .containsEntry("records", (long) records.size())
        .containsEntry("partitions", (long) records.get(0).offsets().size())
        .containsEntry("total_final_lag", 0L)
        .containsEntry("violations", 0L);
  }

  @Property(tries = 200)
  void faithfulRunsWithoutABrokerPass(@ForAll("directRuns") List<LinkageRecord> records) {
    CheckResult result = judge(records, DeliverySemantics.EXACTLY_ONCE);

    assertThat(result.verdict())
        .as("%s; %s", result.summary(), result.evidence())
        .isEqualTo(Verdict.PASSED);
  }

  @Property(tries = 500)
  void anySingleDefectFailsAndIsNamed(
      @ForAll("brokerRuns") List<LinkageRecord> records,
      @ForAll LinkageDefect defect,
      @ForAll @IntRange(min = 0, max = 1_000) int pick) {
    Assume.that(defect.appliesTo(records));

    CheckResult result = judge(defect.apply(records, pick), DeliverySemantics.AT_LEAST_ONCE);

    assertThat(result.verdict()).as(result.summary()).isEqualTo(Verdict.FAILED);
    assertThat(result.evidence().samples())
        .extracting(EvidenceSample::kind)
        .as("%s; %s", defect, result.evidence())
        .contains(defect.kind());
    assertThat(result.evidence().count("violations")).isEqualTo(result.evidence().samples().size());
  }

  @Property(tries = 200)
  void anySingleDefectFailsWithoutABrokerToo(
      @ForAll("directRuns") List<LinkageRecord> records,
      @ForAll LinkageDefect defect,
      @ForAll @IntRange(min = 0, max = 1_000) int pick) {
    Assume.that(defect.appliesTo(records));

    CheckResult result = judge(defect.apply(records, pick), DeliverySemantics.EXACTLY_ONCE);

    assertThat(result.verdict()).as(result.summary()).isEqualTo(Verdict.FAILED);
    assertThat(result.evidence().samples())
        .extracting(EvidenceSample::kind)
        .contains(defect.kind());
  }

  @Property(tries = 200)
  void unconsumedRecordsAtTheEndAreCountedExactly(
      @ForAll("brokerRuns") List<LinkageRecord> records,
      @ForAll @IntRange(min = 1, max = 50) int unconsumed,
      @ForAll @IntRange(min = 0, max = 100) int pick) {
    List<LinkageRecord> lagging =
        BrokerFixture.changedLast(
            records,
            r -> {
              int index = pick % r.offsets().size();
              PartitionOffset o = r.offsets().get(index);
              return BrokerFixture.withOffset(
                  r,
                  index,
                  new PartitionOffset(
                      o.partition(), o.committedOffset(), o.logEndOffset() + unconsumed));
            });

    CheckResult result = judge(lagging, DeliverySemantics.AT_LEAST_ONCE);

    assertThat(result.verdict()).isEqualTo(Verdict.FAILED);
    assertThat(result.evidence().count("total_final_lag")).isEqualTo(unconsumed);
    assertThat(result.evidence().samples()).extracting(EvidenceSample::kind).containsOnly("lag");
  }
}
