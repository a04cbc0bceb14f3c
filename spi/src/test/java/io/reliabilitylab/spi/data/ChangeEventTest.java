package io.reliabilitylab.spi.data;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import org.junit.jupiter.api.Test;

class ChangeEventTest {

  private static final Instant T = Instant.parse("2026-01-01T00:00:00Z");
  private static final Row ROW = TableSchema.ORDERS.row(1L, "bk", 3L, 4L, "paid", 5L, 6, T);

  @Test
  void aDeleteCarriesTheDeletedRowsEventIdAsBothIds() {
    ChangeEvent delete =
        new ChangeEvent(ChangeOp.DELETE, 5, 5L, ROW, SourcePosition.of("b", 1, 0), T);
    assertThat(delete.identity()).isEqualTo("d:5");
    assertThatThrownBy(
            () -> new ChangeEvent(ChangeOp.DELETE, 5, 4L, ROW, SourcePosition.of("b", 1, 0), T))
        .hasMessageContaining("deleted row's event id");
  }

  @Test
  void anUpdateNeedsItsBeforeEventIdAndACreateHasNone() {
    assertThatThrownBy(
            () -> new ChangeEvent(ChangeOp.UPDATE, 5, null, ROW, SourcePosition.of("b", 1, 0), T))
        .hasMessageContaining("before event id");
    assertThatThrownBy(
            () -> new ChangeEvent(ChangeOp.CREATE, 5, 4L, ROW, SourcePosition.of("b", 1, 0), T))
        .hasMessageContaining("no before event id");
  }

  @Test
  void positionsOrderByLogThenOffsetThenRowIndexIgnoringGtid() {
    SourcePosition a = new SourcePosition("mysql-bin.000001", 100, 1, "0-1-9");
    SourcePosition b = new SourcePosition("mysql-bin.000001", 100, 2, "0-1-1");
    SourcePosition c = SourcePosition.of("mysql-bin.000002", 4, 0);
    assertThat(a).isLessThan(b);
    assertThat(b).isLessThan(c);
    assertThat(ChangeOp.ofCode("u")).isEqualTo(ChangeOp.UPDATE);
    assertThatThrownBy(() -> ChangeOp.ofCode("x")).hasMessageContaining("r, c, u, d");
  }
}
