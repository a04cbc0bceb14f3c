package io.reliabilitylab.workload;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.reliabilitylab.spi.data.Row;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.SplittableRandom;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * Generates seeded workloads: hot keys, bursts, several changes to one key in one transaction,
 * updates of just-inserted rows, primary-key updates, deletes and re-inserts of deleted keys.
 *
 * <p>Every choice comes from one {@link SplittableRandom} seeded with the config's seed, in a fixed
 * order, and timestamps count up from the config's start time, never from the clock: the same
 * config gives the same workload, and the same {@link Workload#digest()}, on any machine and JVM.
 *
 * <pre>{@code
 * Workload workload = WorkloadGenerator.generate(WorkloadConfig.of(2_000, 42));
 * }</pre>
 */
@API(status = EXPERIMENTAL)
public final class WorkloadGenerator {

  /** Value choices are drawn below this bound; row values derive from them. */
  private static final int VALUE_BOUND = 1 << 20;

  private WorkloadGenerator() {}

  /** The workload the config describes. */
  public static Workload generate(WorkloadConfig config) {
    Objects.requireNonNull(config, "config");
    return generate(config, 0);
  }

  /**
   * The transactions of the workload the config describes from index {@code first} on, exactly
   * {@code generate(config).transactions().subList(first, …)}, generated without holding the
   * earlier ones or the initial rows: the later part of a long workload, for a caller that wrote
   * the earlier part long ago and is short of memory.
   */
  public static List<SourceTransaction> transactionsFrom(WorkloadConfig config, int first) {
    Objects.requireNonNull(config, "config");
    if (first < 0) {
      throw new IllegalArgumentException(
          "The first transaction's index must be >= 0, not " + first);
    }
    return generate(config, first).transactions();
  }

  private static Workload generate(WorkloadConfig config, int firstKept) {
    SplittableRandom random = new SplittableRandom(config.seed());
    OrdersModel.Choices choices =
        new OrdersModel.Choices() {
          @Override
          public int index(int bound) {
            return random.nextInt(bound);
          }

          @Override
          public boolean coin() {
            return random.nextBoolean();
          }
        };
    OrdersModel model = new OrdersModel(config.seed(), config.keySpace(), config.firstEventId());
    for (int i = 0; i < config.initialRows(); i++) {
      model.insertAnywhere(choices, random.nextInt(VALUE_BOUND), config.startTime());
    }
    List<Row> initialRows = firstKept == 0 ? model.liveRowsSorted() : List.of();

    int[] weights = {
      config.insertWeight(),
      config.updateWeight(),
      config.deleteWeight(),
      config.primaryKeyUpdateWeight(),
      config.reinsertWeight()
    };
    int totalWeight = 0;
    for (int weight : weights) {
      totalWeight += weight;
    }
    Operation[] operations = Operation.values();

    List<SourceTransaction> transactions = new ArrayList<>();
    int index = 0;
    long millis = config.startTime().toEpochMilli();
    int burstLeft = 0;
    int changes = 0;
    while (changes < config.events()) {
      if (burstLeft == 0 && random.nextDouble() < config.burstProbability()) {
        burstLeft = config.burstLength();
      }
      boolean inBurst = burstLeft > 0;
      if (inBurst) {
        burstLeft--;
        millis += random.nextInt(2);
      } else {
        millis += 2 + random.nextInt(config.maxGapMillis() - 1);
      }
      Instant time = Instant.ofEpochMilli(millis);
      int size =
          Math.min(
              1 + random.nextInt(config.maxChangesPerTransaction()), config.events() - changes);
      List<SourceChange> transaction = new ArrayList<>(size);
      @Nullable Long previousKey = null;
      for (int i = 0; i < size; i++) {
        Operation operation = pick(operations, weights, random.nextInt(totalWeight));
        int value = random.nextInt(VALUE_BOUND);
        @Nullable Long target = null;
        if (previousKey != null && random.nextDouble() < config.sameKeyProbability()) {
          target = previousKey;
        } else if ((inBurst || random.nextDouble() < config.hotKeyShare())
            && config.hotKeys() > 0
            && model.usedKeys() > 0) {
          target = 1 + (long) random.nextInt((int) Math.min(config.hotKeys(), model.usedKeys()));
        }
        SourceChange change = model.apply(operation, target, choices, value, time);
        transaction.add(change);
        previousKey = touchedKey(change);
      }
      if (index >= firstKept) {
        transactions.add(new SourceTransaction(index, time, transaction));
      }
      index++;
      changes += size;
    }
    return new Workload(config, initialRows, transactions);
  }

  private static Operation pick(Operation[] operations, int[] weights, int draw) {
    int rest = draw;
    for (int i = 0; i < weights.length; i++) {
      if (rest < weights[i]) {
        return operations[i];
      }
      rest -= weights[i];
    }
    throw new IllegalStateException("A weighted draw fell outside the total weight");
  }

  /** The key a change leaves its mark on: the new key of an update, the deleted key of a delete. */
  static long touchedKey(SourceChange change) {
    Row row =
        change instanceof SourceChange.Insert insert
            ? insert.after()
            : change instanceof SourceChange.Update update
                ? update.after()
                : ((SourceChange.Delete) change).before();
    return (Long) Objects.requireNonNull(row.get(0));
  }
}
