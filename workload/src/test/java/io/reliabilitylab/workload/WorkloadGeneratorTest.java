package io.reliabilitylab.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.reliabilitylab.spi.data.Row;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TimeZone;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

class WorkloadGeneratorTest {

  /** Pinned: a change here means every recorded run with seed 42 replays a different sequence. */
  private static final String SEED_42_DIGEST =
      "8b306303812eed2c949adb9e0512fbc418c40b26a52f55bb23020be94e31415e";

  private static final WorkloadConfig SEED_42 = WorkloadConfig.of(2_000, 42);

  @Test
  void seed42HasThePinnedDigest() {
    Workload workload = WorkloadGenerator.generate(SEED_42);

    assertThat(workload.changeCount()).isEqualTo(2_000);
    assertThat(workload.digest()).isEqualTo(SEED_42_DIGEST);
  }

  @Test
  void theSameSeedGivesTheSameWorkloadAndAnotherSeedAnother() {
    Workload first = WorkloadGenerator.generate(SEED_42);
    Workload again = WorkloadGenerator.generate(SEED_42);
    Workload other = WorkloadGenerator.generate(SEED_42.toBuilder().seed(43).build());

    assertThat(again).isEqualTo(first);
    assertThat(again.digest()).isEqualTo(first.digest());
    assertThat(other.digest()).isNotEqualTo(first.digest());
  }

  @Test
  void theDigestDoesNotDependOnTheDefaultTimeZone() {
    TimeZone original = TimeZone.getDefault();
    try {
      TimeZone.setDefault(TimeZone.getTimeZone("Asia/Kathmandu"));
      assertThat(WorkloadGenerator.generate(SEED_42).digest()).isEqualTo(SEED_42_DIGEST);
      TimeZone.setDefault(TimeZone.getTimeZone("America/St_Johns"));
      assertThat(WorkloadGenerator.generate(SEED_42).digest()).isEqualTo(SEED_42_DIGEST);
    } finally {
      TimeZone.setDefault(original);
    }
  }

  @Test
  void containsEveryFeatureTheLabNeeds() {
    Workload workload = WorkloadGenerator.generate(SEED_42);
    Features features = Features.of(workload, SEED_42.hotKeys());

    assertThat(features.hotKeyChanges)
        .as("changes to the 10 hot keys")
        .isGreaterThan(workload.changeCount() / 5);
    assertThat(features.bursts)
        .as("bursts of >= 10 transactions within 1 ms of each other")
        .isPositive();
    assertThat(features.transactionsChangingOneKeyTwice)
        .as("transactions with several changes to one key")
        .isGreaterThanOrEqualTo(50);
    assertThat(features.updatesOfJustInsertedRows)
        .as("updates of a row inserted in the same transaction")
        .isGreaterThanOrEqualTo(20);
    assertThat(features.primaryKeyUpdates).as("primary-key updates").isGreaterThanOrEqualTo(20);
    assertThat(features.deletes).as("deletes").isGreaterThanOrEqualTo(100);
    assertThat(features.reinserts).as("re-inserts of deleted keys").isGreaterThanOrEqualTo(50);
    assertThat(features.multiChangeTransactions).isGreaterThanOrEqualTo(200);
  }

  @Test
  void everyWriteHasANewIncreasingEventIdAndMillisecondTimestamps() {
    Workload workload = WorkloadGenerator.generate(SEED_42.toBuilder().initialRows(25).build());

    List<Long> written = new ArrayList<>();
    workload.initialRows().forEach(row -> written.add(row.eventId()));
    Instant previousCommit = Instant.MIN;
    for (SourceTransaction transaction : workload.transactions()) {
      assertThat(transaction.commitTime()).isAfterOrEqualTo(previousCommit);
      assertThat(transaction.commitTime().truncatedTo(ChronoUnit.MILLIS))
          .isEqualTo(transaction.commitTime());
      previousCommit = transaction.commitTime();
      for (SourceChange change : transaction.changes()) {
        if (change.writtenEventId() != null) {
          written.add(change.writtenEventId());
        }
        if (change instanceof SourceChange.Insert insert) {
          assertThat(insert.after().get("updated_at")).isEqualTo(transaction.commitTime());
        }
      }
    }
    assertThat(written).isSorted().doesNotHaveDuplicates().startsWith(1L, 2L, 3L);
    assertThat(workload.lastEventId()).hasValue(written.get(written.size() - 1));
    assertThat(workload.initialRows()).hasSize(25);
  }

  @Test
  void rowsCarryTheSeedAndTheStatusesOfTheDataModel() {
    Workload workload = WorkloadGenerator.generate(SEED_42);
    Set<Object> statuses = new TreeSet<>();
    for (SourceTransaction transaction : workload.transactions()) {
      for (SourceChange change : transaction.changes()) {
        Row row =
            change instanceof SourceChange.Delete delete
                ? delete.before()
                : change instanceof SourceChange.Update update
                    ? update.after()
                    : ((SourceChange.Insert) change).after();
        assertThat(row.get("seed")).isEqualTo(42);
        statuses.add(row.get("status"));
      }
    }
    assertThat(statuses)
        .containsExactly("cancelled", "created", "delivered", "packed", "paid", "shipped");
  }

  @Test
  void aSmallKeySpaceIsRespected() {
    Workload workload =
        WorkloadGenerator.generate(SEED_42.toBuilder().keySpace(20).events(3_000).build());

    Set<Object> keys = new HashSet<>();
    for (SourceTransaction transaction : workload.transactions()) {
      for (SourceChange change : transaction.changes()) {
        keys.add(change.key().parts().get(0));
      }
    }
    assertThat(keys).hasSizeLessThanOrEqualTo(20);
    assertThat(workload.changeCount()).isEqualTo(3_000);
  }

  @Test
  void aPrefixKeepsTheFirstTransactions() {
    Workload workload = WorkloadGenerator.generate(SEED_42);

    Workload prefix = workload.prefix(10);

    assertThat(prefix.transactions()).isEqualTo(workload.transactions().subList(0, 10));
    assertThatThrownBy(() -> workload.prefix(100_000))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("the workload has 659");
  }

  @Test
  void badConfigsAreRefusedWithTheSettingNamed() {
    assertThatThrownBy(() -> WorkloadConfig.builder().events(-1).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("events must be at least 0, got -1");
    assertThatThrownBy(() -> WorkloadConfig.builder().hotKeyShare(1.5).build())
        .hasMessageContaining("hotKeyShare is a probability between 0 and 1, got 1.5");
    assertThatThrownBy(() -> WorkloadConfig.builder().operationWeights(0, 0, 0, 0, 0).build())
        .hasMessageContaining("All operation weights are 0");
    assertThatThrownBy(() -> WorkloadConfig.builder().keySpace(5).initialRows(6).build())
        .hasMessageContaining("initialRows (6) exceeds keySpace (5)");
    assertThatThrownBy(
            () ->
                WorkloadConfig.builder()
                    .startTime(Instant.parse("2026-01-01T00:00:00.000001Z"))
                    .build())
        .hasMessageContaining("TIMESTAMP(3)");
  }

  @Test
  void changesDescribeThemselves() {
    Workload workload = WorkloadGenerator.generate(SEED_42);
    List<String> texts = new ArrayList<>();
    workload.transactions().forEach(t -> t.changes().forEach(c -> texts.add(c.toString())));

    assertThat(texts).anySatisfy(text -> assertThat(text).startsWith("insert 1 {order_id=1,"));
    assertThat(texts).anySatisfy(text -> assertThat(text).matches("update key \\d+ -> \\d+ .*"));
    assertThat(texts).anySatisfy(text -> assertThat(text).matches("delete \\d+ \\(event \\d+\\)"));
    assertThat(workload.transactions().get(0).toString()).startsWith("transaction 0 @ 2026-01-01T");
  }

  /** Feature counts of a workload, computed from the sequence alone. */
  static final class Features {
    long hotKeyChanges;
    int bursts;
    int transactionsChangingOneKeyTwice;
    int multiChangeTransactions;
    int updatesOfJustInsertedRows;
    int primaryKeyUpdates;
    int deletes;
    int reinserts;

    static Features of(Workload workload, int hotKeys) {
      Features features = new Features();
      Set<Object> everDeleted = new HashSet<>();
      Instant previous = null;
      int closeRun = 0;
      for (SourceTransaction transaction : workload.transactions()) {
        if (previous != null && !transaction.commitTime().isAfter(previous.plusMillis(1))) {
          closeRun++;
          if (closeRun == 10) {
            features.bursts++;
          }
        } else {
          closeRun = 0;
        }
        previous = transaction.commitTime();
        if (transaction.changes().size() > 1) {
          features.multiChangeTransactions++;
        }
        Set<Object> touched = new HashSet<>();
        Set<Long> insertedHere = new HashSet<>();
        boolean twice = false;
        for (SourceChange change : transaction.changes()) {
          Object key = change.key().parts().get(0);
          if ((Long) key <= hotKeys) {
            features.hotKeyChanges++;
          }
          twice |= !touched.add(key);
          if (change instanceof SourceChange.Insert insert) {
            if (everDeleted.contains(key)) {
              features.reinserts++;
            }
            insertedHere.add(insert.after().eventId());
          } else if (change instanceof SourceChange.Update update) {
            if (insertedHere.contains(update.before().eventId())) {
              features.updatesOfJustInsertedRows++;
            }
            if (update.changesKey()) {
              features.primaryKeyUpdates++;
              everDeleted.add(key);
              if (everDeleted.contains(update.after().key().parts().get(0))) {
                features.reinserts++;
              }
              twice |= !touched.add(update.after().key().parts().get(0));
            }
          } else {
            features.deletes++;
            everDeleted.add(key);
          }
        }
        if (twice) {
          features.transactionsChangingOneKeyTwice++;
        }
      }
      return features;
    }
  }
}
