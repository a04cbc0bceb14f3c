package io.reliabilitylab.pipeline.flink.sink;

import static org.assertj.core.api.Assertions.assertThat;

import io.reliabilitylab.pipeline.flink.envelope.ChangeEnvelope;
import io.reliabilitylab.pipeline.flink.envelope.OrderImage;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.types.RowKind;
import org.apache.flink.util.Collector;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

class CurrentRowsFunctionTest {

  private static final OrderImage OLD =
      new OrderImage(1, "bk", 2L, 300L, "created", 10L, 7, 1_767_225_600_123_456L);
  private static final OrderImage NEW =
      new OrderImage(1, "bk", 2L, 300L, "paid", 11L, 7, 1_767_225_601_000_000L);

  @Test
  void insertsAndReadsBecomePlusI() {
    assertThat(kinds(envelope("c", null, NEW))).containsExactly(RowKind.INSERT);
    assertThat(kinds(envelope("r", null, NEW))).containsExactly(RowKind.INSERT);
  }

  @Test
  void anUpdateBecomesMinusUThenPlusU() {
    List<RowData> rows = rows(envelope("u", OLD, NEW));

    assertThat(rows)
        .extracting(RowData::getRowKind)
        .containsExactly(RowKind.UPDATE_BEFORE, RowKind.UPDATE_AFTER);
    assertThat(rows.get(0).getLong(5)).isEqualTo(10L);
    assertThat(rows.get(1).getLong(5)).isEqualTo(11L);
  }

  @Test
  void aDeleteBecomesMinusDOfTheBeforeImage() {
    List<RowData> rows = rows(envelope("d", OLD, null));

    assertThat(rows).extracting(RowData::getRowKind).containsExactly(RowKind.DELETE);
    assertThat(rows.get(0).getLong(5)).isEqualTo(10L);
  }

  @Test
  void timestampsKeepTheirMicroseconds() {
    RowData row = rows(envelope("c", null, OLD)).get(0);

    TimestampData updated = row.getTimestamp(7, 6);
    assertThat(updated.getMillisecond()).isEqualTo(1_767_225_600_123L);
    assertThat(updated.getNanoOfMillisecond()).isEqualTo(456_000);
  }

  @Test
  void theChangelogRowOfADeleteCarriesTheDeletedEventIdTwice() {
    RowData row = EnvelopeRows.changelog(envelope("d", OLD, null));

    assertThat(row.getRowKind()).isEqualTo(RowKind.INSERT);
    assertThat(row.getString(0).toString()).isEqualTo("d");
    assertThat(row.getLong(1)).isEqualTo(10L);
    assertThat(row.getLong(2)).isEqualTo(10L);
    assertThat(row.getString(10).toString()).isEqualTo("mysql-bin.000001");
    assertThat(row.getLong(11)).isEqualTo(99L);
    assertThat(row.getInt(12)).isEqualTo(3);
    assertThat(row.isNullAt(13)).isTrue();
  }

  @Test
  void theChangelogRowOfAnInsertHasNoBeforeEventId() {
    RowData row = EnvelopeRows.changelog(envelope("c", null, NEW));

    assertThat(row.getLong(1)).isEqualTo(11L);
    assertThat(row.isNullAt(2)).isTrue();
  }

  @Test
  void theFlinkTimestampTypesAreLocalZonedWithMicroseconds() {
    assertThat(EnvelopeRows.CURRENT_TYPE.getTypeAt(7).asSummaryString())
        .isEqualTo("TIMESTAMP_LTZ(6)");
    assertThat(EnvelopeRows.CHANGELOG_TYPE.getTypeAt(14).asSummaryString())
        .isEqualTo("TIMESTAMP_LTZ(6)");
  }

  private static ChangeEnvelope envelope(
      String op, @Nullable OrderImage before, @Nullable OrderImage after) {
    return new ChangeEnvelope(op, before, after, "mysql-bin.000001", 99, 3, null, 1_000L);
  }

  private static List<RowKind> kinds(ChangeEnvelope envelope) {
    return rows(envelope).stream().map(RowData::getRowKind).toList();
  }

  private static List<RowData> rows(ChangeEnvelope envelope) {
    List<RowData> out = new ArrayList<>();
    new CurrentRowsFunction()
        .flatMap(
            envelope,
            new Collector<>() {
              @Override
              public void collect(RowData row) {
                out.add(row);
              }

              @Override
              public void close() {}
            });
    return out;
  }
}
