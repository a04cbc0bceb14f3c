package io.reliabilitylab.spi.data;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import org.junit.jupiter.api.Test;

class RowTest {

  private static final Instant T = Instant.parse("2026-01-01T00:00:00Z");

  @Test
  void widensSmallIntegersToTheColumnType() {
    Row row = TableSchema.ORDERS.row(1, "bk", 3, 4, "paid", 5, (short) 6, T);
    assertThat(row.get("order_id")).isEqualTo(1L);
    assertThat(row.get("seed")).isEqualTo(6);
    assertThat(row.key()).isEqualTo(RowKey.of(1L));
    assertThat(row.eventId()).isEqualTo(5L);
  }

  @Test
  void refusesAValueOfTheWrongTypeNamingTheColumn() {
    assertThatThrownBy(() -> TableSchema.ORDERS.row(1L, "bk", 3L, "lots", "paid", 5L, 6, T))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("amount_cents")
        .hasMessageContaining("BIGINT");
  }

  @Test
  void refusesANullKey() {
    assertThatThrownBy(() -> TableSchema.ORDERS.row(null, "bk", 3L, 4L, "paid", 5L, 6, T))
        .hasMessageContaining("order_id");
  }

  @Test
  void namesTheColumnsThatDiffer() {
    Row row = TableSchema.ORDERS.row(1L, "bk", 3L, 4L, "paid", 5L, 6, T);
    assertThat(row.differingColumns(row.with("status", "shipped").with("amount_cents", 9L)))
        .containsExactly("amount_cents", "status");
  }

  @Test
  void aSchemaNeedsAKeyThatIsOneOfItsColumns() {
    assertThatThrownBy(
            () ->
                new TableSchema(
                    "t",
                    java.util.List.of(new Column("a", ColumnType.BIGINT)),
                    java.util.List.of("b"),
                    null))
        .hasMessageContaining("Key column b");
  }
}
