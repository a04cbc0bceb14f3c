package io.reliabilitylab.spi.data;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;

class RowKeyTest {

  @Test
  void ordersNumbersByValueNotAsText() {
    assertThat(RowKey.of(9L)).isLessThan(RowKey.of(10L));
    assertThat(RowKey.of(-1L)).isLessThan(RowKey.of(0L));
  }

  @Test
  void ordersTextByCodePointNotByUtf16UnitsOrCollation() {
    // U+FF5E (a BMP char above the surrogate range) sorts before U+1F600 by code point, but after
    // it by UTF-16 units; a case-insensitive collation would also put "B" after "a".
    assertThat(RowKey.of("\uFF5E")).isLessThan(RowKey.of("\uD83D\uDE00"));
    assertThat(RowKey.of("B")).isLessThan(RowKey.of("a"));
  }

  @Test
  void comparesCompositeKeysPartByPart() {
    assertThat(RowKey.of(1L, "b")).isGreaterThan(RowKey.of(1L, "a")).isLessThan(RowKey.of(2L, "a"));
    assertThat(RowKey.of(1L, "a").toString()).isEqualTo("1|a");
  }

  @Property
  void orderIsATotalOrderConsistentWithEquals(
      @ForAll List<@net.jqwik.api.constraints.StringLength(max = 4) String> texts) {
    List<RowKey> keys = new ArrayList<>();
    texts.forEach(t -> keys.add(RowKey.of(t)));
    keys.sort(null);
    for (int i = 1; i < keys.size(); i++) {
      RowKey a = keys.get(i - 1);
      RowKey b = keys.get(i);
      assertThat(a.compareTo(b)).isLessThanOrEqualTo(0);
      assertThat(a.compareTo(b) == 0).isEqualTo(a.equals(b));
    }
  }
}
