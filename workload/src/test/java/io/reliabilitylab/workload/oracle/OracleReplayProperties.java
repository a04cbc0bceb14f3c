package io.reliabilitylab.workload.oracle;

import static org.assertj.core.api.Assertions.assertThat;

import io.reliabilitylab.spi.data.ChangeEvent;
import io.reliabilitylab.spi.data.Row;
import io.reliabilitylab.spi.data.SourcePosition;
import io.reliabilitylab.workload.SourceChange;
import io.reliabilitylab.workload.SourceTransaction;
import io.reliabilitylab.workload.Workload;
import io.reliabilitylab.workload.WorkloadConfig;
import io.reliabilitylab.workload.WorkloadGenerator;
import io.reliabilitylab.workload.Workloads;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.statistics.Statistics;

/**
 * Checks the oracle against a second model written here without any of the oracle's code: a plain
 * interpreter of the workload, and a model of delivery with checkpoints and restores.
 */
class OracleReplayProperties {

  @Property(tries = 2_000)
  void theOracleAgreesWithAPlainInterpreter(@ForAll("workloads") Workload workload) {
    assertThat(Oracle.expect(workload).currentRows()).isEqualTo(interpret(workload));
  }

  @Property(tries = 300)
  void theOracleAgreesWithAPlainInterpreterOnSeededWorkloads(
      @ForAll long seed,
      @ForAll @IntRange(max = 400) int events,
      @ForAll @IntRange(min = 1, max = 40) int keySpace,
      @ForAll @IntRange(max = 10) int initialRows) {
    Workload workload =
        WorkloadGenerator.generate(
            WorkloadConfig.builder()
                .events(events)
                .seed(seed)
                .keySpace(keySpace)
                .initialRows(Math.min(initialRows, keySpace))
                .build());

    assertThat(Oracle.expect(workload).currentRows()).isEqualTo(interpret(workload));
  }

  @Property(tries = 1_000)
  void thePartOfAWorkloadHasTheEnvelopesItsTransactionsHaveInTheWhole(
      @ForAll("workloads") Workload workload,
      @ForAll @IntRange(max = 1_000) int fromPermille,
      @ForAll @IntRange(max = 1_000) int lengthPermille) {
    int size = workload.transactions().size();
    int from = size * fromPermille / 1_000;
    int to = from + (size - from) * lengthPermille / 1_000;
    Expectation whole = Oracle.expect(workload);
    int[] ends = whole.transactionEnds();
    int first = from == 0 ? 0 : ends[from - 1];
    int last = to == 0 ? 0 : ends[to - 1];

    assertThat(Oracle.envelopes(workload.transactions().subList(from, to)))
        .isEqualTo(whole.events().subList(first, last));
  }

  @Property(tries = 5_000)
  void atLeastOnceDeliveryFoldsToTheOracleWithTheImpliedDuplicates(
      @ForAll("workloads") Workload workload, @ForAll("schedules") List<Step> schedule) {
    Expectation expected = Oracle.expect(workload);
    Delivery delivery = Delivery.run(expected.events(), schedule);

    assertThat(upsertInDeliveryOrder(delivery.atLeastOnce)).isEqualTo(expected.currentRows());
    assertThat(foldOncePerPosition(delivery.atLeastOnce)).isEqualTo(expected.currentRows());
    assertThat(duplicates(delivery.atLeastOnce)).isEqualTo(delivery.redelivered);
    assertThat(delivery.atLeastOnce).hasSize(expected.events().size() + delivery.redelivered);
    Statistics.label("redelivery").collect(delivery.redelivered > 0 ? "some" : "none");
    Statistics.label("redelivery")
        .coverage(coverage -> coverage.check("some").percentage(share -> share > 25));
  }

  @Property(tries = 5_000)
  void exactlyOnceDeliveryEqualsTheOracleChangelog(
      @ForAll("workloads") Workload workload, @ForAll("schedules") List<Step> schedule) {
    Expectation expected = Oracle.expect(workload);
    Delivery delivery = Delivery.run(expected.events(), schedule);

    assertThat(delivery.exactlyOnce).isEqualTo(expected.events());
  }

  @Provide
  Arbitrary<Workload> workloads() {
    return Workloads.workloads(0, 40);
  }

  @Provide
  Arbitrary<List<Step>> schedules() {
    return Combinators.combine(
            Arbitraries.integers().between(0, 8),
            Arbitraries.integers().between(0, 2).map(draw -> draw == 0),
            Arbitraries.integers().between(0, 3).map(draw -> draw == 0))
        .as(Step::new)
        .list()
        .ofMaxSize(20);
  }

  /**
   * One step of a schedule: read {@code advance} more events, then complete a checkpoint if asked,
   * then fail and restore from the last completed checkpoint if asked.
   */
  record Step(int advance, boolean checkpoint, boolean restore) {}

  /** What the delivery model wrote under each guarantee, and how many events it sent again. */
  static final class Delivery {
    final List<ChangeEvent> atLeastOnce = new ArrayList<>();
    final List<ChangeEvent> exactlyOnce = new ArrayList<>();
    int redelivered;

    static Delivery run(List<ChangeEvent> source, List<Step> schedule) {
      Delivery delivery = new Delivery();
      List<ChangeEvent> uncommitted = new ArrayList<>();
      int next = 0;
      int checkpointed = 0;
      for (Step step : schedule) {
        int end = Math.min(source.size(), next + step.advance());
        for (; next < end; next++) {
          delivery.atLeastOnce.add(source.get(next));
          uncommitted.add(source.get(next));
        }
        if (step.checkpoint()) {
          checkpointed = next;
          delivery.exactlyOnce.addAll(uncommitted);
          uncommitted.clear();
        }
        if (step.restore()) {
          // Everything read after the last completed checkpoint is read again after the restore;
          // the exactly-once sink never committed it, so it throws it away.
          delivery.redelivered += next - checkpointed;
          next = checkpointed;
          uncommitted.clear();
        }
      }
      // The job then runs to the end without faults and a final checkpoint commits the rest.
      for (; next < source.size(); next++) {
        delivery.atLeastOnce.add(source.get(next));
        uncommitted.add(source.get(next));
      }
      delivery.exactlyOnce.addAll(uncommitted);
      return delivery;
    }
  }

  /** The final table by interpreting the source changes directly on a map of order ids. */
  private static List<Row> interpret(Workload workload) {
    TreeMap<Long, Row> table = new TreeMap<>();
    workload.initialRows().forEach(row -> table.put(orderId(row), row));
    for (SourceTransaction transaction : workload.transactions()) {
      for (SourceChange change : transaction.changes()) {
        if (change instanceof SourceChange.Insert insert) {
          table.put(orderId(insert.after()), insert.after());
        } else if (change instanceof SourceChange.Update update) {
          table.remove(orderId(update.before()));
          table.put(orderId(update.after()), update.after());
        } else if (change instanceof SourceChange.Delete delete) {
          table.remove(orderId(delete.before()));
        }
      }
    }
    return new ArrayList<>(table.values());
  }

  /** An upserting sink: c and u overwrite the key, d removes it, in the order delivered. */
  private static List<Row> upsertInDeliveryOrder(List<ChangeEvent> delivered) {
    TreeMap<Long, Row> table = new TreeMap<>();
    delivered.forEach(event -> apply(table, event));
    return new ArrayList<>(table.values());
  }

  /** Each source position applied once, in position order, however often it was delivered. */
  private static List<Row> foldOncePerPosition(List<ChangeEvent> delivered) {
    TreeMap<SourcePosition, ChangeEvent> once = new TreeMap<>();
    delivered.forEach(event -> once.putIfAbsent(event.position(), event));
    TreeMap<Long, Row> table = new TreeMap<>();
    once.values().forEach(event -> apply(table, event));
    return new ArrayList<>(table.values());
  }

  private static void apply(TreeMap<Long, Row> table, ChangeEvent event) {
    switch (event.op()) {
      case CREATE, UPDATE, READ -> table.put(orderId(event.row()), event.row());
      case DELETE -> table.remove(orderId(event.row()));
    }
  }

  /** Deliveries beyond the first, per source position. */
  private static int duplicates(List<ChangeEvent> delivered) {
    TreeMap<SourcePosition, Integer> counts = new TreeMap<>();
    delivered.forEach(event -> counts.merge(event.position(), 1, Integer::sum));
    int duplicates = 0;
    for (int count : counts.values()) {
      duplicates += count - 1;
    }
    return duplicates;
  }

  private static Long orderId(Row row) {
    return (Long) row.get("order_id");
  }
}
