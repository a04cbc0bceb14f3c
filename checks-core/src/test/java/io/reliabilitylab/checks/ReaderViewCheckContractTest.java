package io.reliabilitylab.checks;

import io.reliabilitylab.spi.check.ReconciliationCheck;
import io.reliabilitylab.spi.data.ChangeEvent;
import io.reliabilitylab.spi.data.DeliverySemantics;
import io.reliabilitylab.spi.data.Row;
import io.reliabilitylab.testkit.LabeledContext;
import io.reliabilitylab.testkit.ReconciliationCheckContract;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The check contract on committed states: the standard in-memory contexts keep no history, so the
 * faithful and broken contexts here are the standard history committed in three snapshots.
 */
class ReaderViewCheckContractTest extends ReconciliationCheckContract {

  private static final Path WORK = Path.of(System.getProperty("java.io.tmpdir"));

  @Override
  protected ReconciliationCheck createCheck() {
    return new ReaderViewCheck();
  }

  @Override
  protected List<LabeledContext> faithfulContexts() {
    List<LabeledContext> contexts = new ArrayList<>();
    for (DeliverySemantics semantics : DeliverySemantics.values()) {
      contexts.add(
          LabeledContext.of(
              "standard history in three commits, " + semantics,
              context(semantics, currentStates(List.of(3, 6, 9)), changelogStates(3, 6, 9))));
    }
    return contexts;
  }

  @Override
  protected List<LabeledContext> brokenContexts() {
    List<List<Row>> vanished = new ArrayList<>(currentStates(List.of(3, 9)));
    List<Row> withoutOrder2 = new ArrayList<>(vanished.get(0));
    withoutOrder2.removeIf(row -> Long.valueOf(2).equals(row.get("order_id")));
    vanished.add(1, withoutOrder2);
    List<List<Row>> phantom = new ArrayList<>(currentStates(List.of(3, 9)));
    phantom.add(1, List.of(Fixture.row(1, 99, "forged", 1)));
    return List.of(
        LabeledContext.of(
            "order 2 vanishes for one commit",
            context(DeliverySemantics.EXACTLY_ONCE, vanished, changelogStates(3, 9))),
        LabeledContext.of(
            "a commit shows a row the source never held",
            context(DeliverySemantics.AT_LEAST_ONCE, phantom, changelogStates(3, 9))));
  }

  private static io.reliabilitylab.spi.check.CheckContext context(
      DeliverySemantics semantics, List<List<Row>> current, List<List<ChangeEvent>> changelog) {
    Fixture source = Fixture.standard();
    return Fixture.context(semantics, WORK)
        .expectedCurrent(Fixture.rows("source orders", source.currentRows()))
        .expectedChangelog(Fixture.log("oracle changelog", source.changelog()))
        .actualCurrent(CommittedStates.rows("iceberg orders_current", current))
        .actualChangelog(CommittedStates.changelog("iceberg orders_changelog", changelog))
        .build();
  }

  private static List<List<Row>> currentStates(List<Integer> points) {
    List<ChangeEvent> events = Fixture.standard().events;
    List<List<Row>> states = new ArrayList<>();
    for (int point : points) {
      states.add(List.copyOf(ReaderViewProperties.fold(events, point).values()));
    }
    return states;
  }

  private static List<List<ChangeEvent>> changelogStates(int... points) {
    List<ChangeEvent> events = Fixture.standard().events;
    List<List<ChangeEvent>> states = new ArrayList<>();
    for (int point : points) {
      states.add(Fixture.asSink(events.subList(0, point)));
    }
    return states;
  }
}
