package io.reliabilitylab.checks;

import static io.reliabilitylab.checks.Fixture.row;
import static io.reliabilitylab.checks.Fixture.rows;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.reliabilitylab.spi.check.CheckResult;
import io.reliabilitylab.spi.check.EvidenceSample;
import io.reliabilitylab.spi.check.Verdict;
import io.reliabilitylab.spi.data.DeliverySemantics;
import io.reliabilitylab.spi.data.Row;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class NoDuplicateKeysCheckTest {

  @TempDir Path work;

  private final NoDuplicateKeysCheck check = new NoDuplicateKeysCheck();
  private final Fixture fixture = Fixture.standard();

  private CheckResult audit(List<Row> current, int memory) {
    return check.check(
        Fixture.context(DeliverySemantics.AT_LEAST_ONCE, work)
            .actualCurrent(rows("iceberg orders_current", current))
            .maxRowsInMemory(memory)
            .build());
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 250_000})
  void uniqueKeysPass(int memory) {
    CheckResult result = audit(fixture.currentRows(), memory);

    assertThat(result.verdict()).isEqualTo(Verdict.PASSED);
    assertThat(result.evidence().counts())
        .containsEntry("rows", 3L)
        .containsEntry("duplicate_keys", 0L)
        .containsEntry("duplicate_rows", 0L);
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 250_000})
  void keyHeldTwiceFailsNamingTheKey(int memory) {
    List<Row> current = new ArrayList<>(fixture.currentRows());
    current.add(row(1, 3, "paid", 100)); // a stale version next to the current one
    current.add(row(4, 8, "paid", 450));
    current.add(row(4, 8, "paid", 450));

    CheckResult result = audit(current, memory);

    assertThat(result.verdict()).isEqualTo(Verdict.FAILED);
    assertThat(result.evidence().counts())
        .containsEntry("rows", 6L)
        .containsEntry("duplicate_keys", 2L)
        .containsEntry("duplicate_rows", 3L);
    assertThat(result.evidence().samples())
        .extracting(EvidenceSample::kind, EvidenceSample::subject)
        .containsExactly(
            tuple("duplicate_key", "order_id=1"), tuple("duplicate_key", "order_id=4"));
    assertThat(result.evidence().samples().get(1).note()).contains("3 times");
  }

  @Test
  void missingInputIsInconclusive() {
    CheckResult result = check.check(Fixture.context(DeliverySemantics.EXACTLY_ONCE, work).build());

    assertThat(result.verdict()).isEqualTo(Verdict.INCONCLUSIVE);
    assertThat(result.summary()).contains("actualCurrent");
  }

  @Test
  void unreadableInputIsInconclusive() {
    CheckResult result =
        check.check(
            Fixture.context(DeliverySemantics.EXACTLY_ONCE, work)
                .actualCurrent(Fixture.failing("orders_current"))
                .build());

    assertThat(result.verdict()).isEqualTo(Verdict.INCONCLUSIVE);
    assertThat(result.summary()).contains("connection reset by peer");
  }
}
