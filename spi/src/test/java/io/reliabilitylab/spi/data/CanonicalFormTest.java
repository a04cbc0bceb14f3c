package io.reliabilitylab.spi.data;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.TimeZone;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class CanonicalFormTest {

  private TimeZone original;

  @BeforeEach
  void useANonUtcDefaultTimeZone() {
    original = TimeZone.getDefault();
    TimeZone.setDefault(TimeZone.getTimeZone("Asia/Kathmandu"));
  }

  @AfterEach
  void restoreTimeZone() {
    TimeZone.setDefault(original);
  }

  @Test
  void writesTimestampsInUtcWithSixFractionalDigitsWhateverTheDefaultZone() {
    assertThat(CanonicalForm.value(Instant.parse("2026-01-01T00:00:01.5Z")))
        .isEqualTo("2026-01-01T00:00:01.500000Z");
  }

  @Test
  void truncatesTimestampsToMicrosecondsWhenARowIsBuilt() {
    Row row = order(1, Instant.parse("2026-01-01T00:00:01.123456789Z"));
    assertThat(row.get("updated_at")).isEqualTo(Instant.parse("2026-01-01T00:00:01.123456Z"));
    assertThat(row).isEqualTo(order(1, Instant.parse("2026-01-01T00:00:01.123456Z")));
  }

  @Test
  void escapesSeparatorsAndMarksNull() {
    assertThat(CanonicalForm.value("a\tb\nc\\d")).isEqualTo("a\\tb\\nc\\\\d");
    assertThat(CanonicalForm.value(null)).isEqualTo("\\N");
    assertThat(CanonicalForm.value(new BigDecimal("12.3400"))).isEqualTo("12.34");
  }

  @Test
  void writesARowInColumnOrder() {
    Row row = order(7, Instant.parse("2026-01-01T00:00:07Z"));
    assertThat(CanonicalForm.line(row))
        .isEqualTo("7\tbk-7\t3\t700\tpaid\t70\t42\t2026-01-01T00:00:07.000000Z\n");
  }

  @Test
  void digestsRowSetsInKeyOrderOnlyAndAgreesAcrossTableNames() {
    Row first = order(1, Instant.parse("2026-01-01T00:00:01Z"));
    Row second = order(2, Instant.parse("2026-01-01T00:00:02Z"));
    String digest = new RowSetDigest().add(first).add(second).hex();
    String sameRowsOtherTable =
        new RowSetDigest()
            .add(first.inTable(TableSchema.ORDERS.withName("orders_current")))
            .add(second.inTable(TableSchema.ORDERS.withName("orders_current")))
            .hex();
    assertThat(digest).isEqualTo(sameRowsOtherTable).hasSize(64);
    RowSetDigest outOfOrder = new RowSetDigest().add(second);
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> outOfOrder.add(first))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("key order");
  }

  static Row order(long orderId, Instant updatedAt) {
    return TableSchema.ORDERS.row(
        orderId, "bk-" + orderId, 3L, orderId * 100, "paid", orderId * 10, 42, updatedAt);
  }
}
