package io.reliabilitylab.workload;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * jqwik arbitraries of workloads for property tests. A workload is drawn as a list of abstract
 * intents (operation, key choice, value choice, transaction boundary) and interpreted into a valid
 * workload, so when a property fails jqwik shrinks the list and the workload shrinks with it: fewer
 * changes, simpler operations (towards inserts), repeated keys, default values.
 *
 * <pre>{@code
 * @Property
 * void oracleFoldsItsChangelog(@ForAll("workloads") Workload workload) { ... }
 *
 * @Provide
 * Arbitrary<Workload> workloads() {
 *   return Workloads.workloads(1, 60);
 * }
 * }</pre>
 *
 * Needs {@code net.jqwik:jqwik-api} on the class path (an optional dependency of this module).
 */
@API(status = EXPERIMENTAL)
public final class Workloads {

  /** The commit time of the first interpreted transaction; each next one is a second later. */
  private static final Instant START = WorkloadConfig.DEFAULT_START_TIME.plusSeconds(1);

  private Workloads() {}

  /** Workloads of 0 to 40 changes. */
  public static Arbitrary<Workload> workloads() {
    return workloads(0, 40);
  }

  /** Workloads of {@code minChanges} to {@code maxChanges} changes. */
  public static Arbitrary<Workload> workloads(int minChanges, int maxChanges) {
    if (minChanges < 0 || maxChanges < minChanges) {
      throw new IllegalArgumentException(
          "Change bounds must satisfy 0 <= min <= max, got min "
              + minChanges
              + " and max "
              + maxChanges);
    }
    return intents().list().ofMinSize(minChanges).ofMaxSize(maxChanges).map(Workloads::interpret);
  }

  /** One abstract change each; shrinks towards an insert that repeats the previous key. */
  public static Arbitrary<Intent> intents() {
    return Combinators.combine(
            Arbitraries.of(Operation.class),
            Arbitraries.integers().between(0, 15),
            Arbitraries.integers().between(0, 1_023),
            // About one change in three ends its transaction; shrinks to one change per
            // transaction.
            Arbitraries.integers().between(0, 2).map(draw -> draw == 0))
        .as(Intent::new);
  }

  /**
   * One abstract change. Key choice 0 means the key the previous change touched; other choices pick
   * among live, deleted or fresh keys. The value choice decides the row's values.
   */
  @API(status = EXPERIMENTAL)
  public record Intent(
      Operation operation, int keyChoice, int valueChoice, boolean endsTransaction) {
    public Intent {
      Objects.requireNonNull(operation, "operation");
    }
  }

  /** Turns intents into a valid workload; the same intents always give the same workload. */
  public static Workload interpret(List<Intent> intents) {
    WorkloadConfig config = WorkloadConfig.builder().events(intents.size()).seed(0).build();
    OrdersModel model = new OrdersModel(config.seed(), config.keySpace(), config.firstEventId());
    List<SourceTransaction> transactions = new ArrayList<>();
    List<SourceChange> open = new ArrayList<>();
    @Nullable Long previousKey = null;
    for (int i = 0; i < intents.size(); i++) {
      Intent intent = intents.get(i);
      Instant time = START.plus(Duration.ofSeconds(transactions.size()));
      @Nullable Long target = intent.keyChoice() == 0 ? previousKey : null;
      OrdersModel.Choices choices =
          new OrdersModel.Choices() {
            @Override
            public int index(int bound) {
              return intent.keyChoice() % bound;
            }

            @Override
            public boolean coin() {
              return (intent.valueChoice() & 1) == 0;
            }
          };
      SourceChange change =
          model.apply(intent.operation(), target, choices, intent.valueChoice(), time);
      open.add(change);
      previousKey = WorkloadGenerator.touchedKey(change);
      if (intent.endsTransaction() || i == intents.size() - 1) {
        transactions.add(new SourceTransaction(transactions.size(), time, open));
        open = new ArrayList<>();
      }
    }
    return new Workload(config, List.of(), transactions);
  }
}
