package io.reliabilitylab.testkit;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.reliabilitylab.spi.check.CheckContext;
import io.reliabilitylab.spi.data.ChangeEvent;
import io.reliabilitylab.spi.data.ChangeOp;
import io.reliabilitylab.spi.data.Changelog;
import io.reliabilitylab.spi.data.DeliverySemantics;
import io.reliabilitylab.spi.data.RowSet;
import java.util.ArrayList;
import java.util.List;
import org.apiguardian.api.API;

/**
 * The contexts {@link ReconciliationCheckContract} runs a check against by default, built from
 * {@link OrdersFixtures}: faithful ones a correct check passes, broken ones ({@link
 * StandardMutation}) a useful check fails at least one of, and partial ones it must survive.
 *
 * <p>{@code List<LabeledContext> mine = new ArrayList<>(StandardContexts.faithful());}
 */
@API(status = EXPERIMENTAL)
public final class StandardContexts {

  private StandardContexts() {}

  /** A context with no input at all: a check must answer inconclusive. */
  public static LabeledContext noInputs(DeliverySemantics semantics) {
    return LabeledContext.of(
        "no inputs at all (" + label(semantics) + ")", CheckContext.builder(semantics).build());
  }

  /** The standard history written faithfully, under each delivery semantics. */
  public static List<LabeledContext> faithful() {
    List<LabeledContext> contexts = new ArrayList<>();
    for (DeliverySemantics semantics : DeliverySemantics.values()) {
      contexts.add(
          LabeledContext.of(
              "faithful orders: actual tables equal the oracle's (" + label(semantics) + ")",
              OrdersFixtures.faithful(semantics).build()));
    }
    return contexts;
  }

  /**
   * The standard history redelivered in part under at-least-once: {@code u:4} is in the changelog
   * twice and the current table is right. The lab's own checks count the duplicate and pass; not in
   * {@link #faithful()} because a plugin may not model at-least-once at all.
   */
  public static LabeledContext redeliveredAtLeastOnce() {
    List<ChangeEvent> events = new ArrayList<>(OrdersFixtures.changes());
    events.add(OrdersFixtures.change(ChangeOp.UPDATE, 4));
    return LabeledContext.of(
        "faithful orders with u:4 of order 1 redelivered once (at-least-once)",
        OrdersFixtures.context(
                DeliverySemantics.AT_LEAST_ONCE, OrdersFixtures.currentRows(), events)
            .build());
  }

  /** Every {@link StandardMutation} under every semantics it is a defect under. */
  public static List<LabeledContext> broken() {
    List<LabeledContext> contexts = new ArrayList<>();
    for (StandardMutation mutation : StandardMutation.values()) {
      for (DeliverySemantics semantics : mutation.semantics()) {
        contexts.add(mutation.context(semantics));
      }
    }
    return contexts;
  }

  /**
   * Faithful data with inputs left out: each input alone, and each side alone. No verdict is
   * prescribed (a check may need only one input), but a check must answer without throwing.
   */
  public static List<LabeledContext> partial() {
    DeliverySemantics semantics = DeliverySemantics.EXACTLY_ONCE;
    CheckContext full = OrdersFixtures.faithful(semantics).build();
    RowSet expectedCurrent = full.expectedCurrent().orElseThrow();
    RowSet actualCurrent = full.actualCurrent().orElseThrow();
    Changelog expectedChangelog = full.expectedChangelog().orElseThrow();
    Changelog actualChangelog = full.actualChangelog().orElseThrow();
    String suffix = " (" + label(semantics) + ")";
    return List.of(
        LabeledContext.of(
            "only the expected current table" + suffix,
            CheckContext.builder(semantics).expectedCurrent(expectedCurrent).build()),
        LabeledContext.of(
            "only the actual current table" + suffix,
            CheckContext.builder(semantics).actualCurrent(actualCurrent).build()),
        LabeledContext.of(
            "only the expected changelog" + suffix,
            CheckContext.builder(semantics).expectedChangelog(expectedChangelog).build()),
        LabeledContext.of(
            "only the actual changelog" + suffix,
            CheckContext.builder(semantics).actualChangelog(actualChangelog).build()),
        LabeledContext.of(
            "only the expected side" + suffix,
            CheckContext.builder(semantics)
                .expectedCurrent(expectedCurrent)
                .expectedChangelog(expectedChangelog)
                .build()),
        LabeledContext.of(
            "only the actual side, at a checkpoint" + suffix,
            CheckContext.builder(semantics)
                .actualCurrent(actualCurrent)
                .actualChangelog(actualChangelog)
                .checkpointId(OrdersFixtures.CHECKPOINT_ID)
                .build()),
        LabeledContext.of(
            "all four tables but no checkpoint id" + suffix,
            full.toBuilder().checkpointId(null).build()));
  }

  static String label(DeliverySemantics semantics) {
    return switch (semantics) {
      case EXACTLY_ONCE -> "exactly-once";
      case AT_LEAST_ONCE -> "at-least-once";
    };
  }
}
