package io.reliabilitylab.harness.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.reliabilitylab.spi.data.Row;
import io.reliabilitylab.workload.SourceChange;
import io.reliabilitylab.workload.SourceTransaction;
import io.reliabilitylab.workload.Workload;
import io.reliabilitylab.workload.WorkloadConfig;
import io.reliabilitylab.workload.WorkloadGenerator;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ShiftedRoundsTest {

  private static final long KEY_BASE = 1_000_000_000_000L;

  private static Workload round() {
    return WorkloadGenerator.generate(
        WorkloadConfig.builder()
            .events(500)
            .seed(3)
            .maxChangesPerTransaction(1)
            .firstEventId(10_001)
            .build());
  }

  @Test
  void roundsFollowEachOtherWithoutSharingKeysOrEventIds() {
    ShiftedRounds rounds = new ShiftedRounds(round(), KEY_BASE);
    List<SourceTransaction> all = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      all.addAll(rounds.round(i));
    }
    assertThat(rounds.changesPerRound()).isEqualTo(500);

    // Replaying all rounds on an empty table: every update and delete finds the row it expects,
    // every insert a free key, and event ids count up without gaps from the first round's.
    Map<Long, Long> live = new HashMap<>();
    Set<Long> written = new HashSet<>();
    for (SourceTransaction transaction : all) {
      for (SourceChange change : transaction.changes()) {
        if (change instanceof SourceChange.Insert insert) {
          assertThat(live.put(key(insert.after()), insert.after().eventId())).isNull();
        } else if (change instanceof SourceChange.Update update) {
          assertThat(live.remove(key(update.before()))).isEqualTo(update.before().eventId());
          assertThat(live.put(key(update.after()), update.after().eventId())).isNull();
        } else {
          Row before = ((SourceChange.Delete) change).before();
          assertThat(live.remove(key(before))).isEqualTo(before.eventId());
        }
        if (change.writtenEventId() != null) {
          assertThat(written.add(change.writtenEventId())).isTrue();
          assertThat(key(rowOf(change))).isGreaterThan(KEY_BASE);
        }
      }
    }
    long first = written.stream().min(Long::compare).orElseThrow();
    long last = written.stream().max(Long::compare).orElseThrow();
    assertThat(first).isEqualTo(10_001);
    assertThat(last - first + 1).isEqualTo(written.size());
  }

  @Test
  void aRoundWithInitialRowsIsRefused() {
    Workload withInitialRows =
        WorkloadGenerator.generate(WorkloadConfig.builder().events(10).initialRows(5).build());
    assertThatThrownBy(() -> new ShiftedRounds(withInitialRows, KEY_BASE))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("initial rows");
  }

  private static Row rowOf(SourceChange change) {
    if (change instanceof SourceChange.Insert insert) {
      return insert.after();
    }
    return ((SourceChange.Update) change).after();
  }

  private static long key(Row row) {
    return (Long) Objects.requireNonNull(row.get("order_id"));
  }
}
