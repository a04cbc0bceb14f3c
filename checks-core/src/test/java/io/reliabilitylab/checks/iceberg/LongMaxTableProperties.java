package io.reliabilitylab.checks.iceberg;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/** The unboxed table of equality-delete sequence numbers answers as a map of maxima would. */
class LongMaxTableProperties {

  @Provide
  Arbitrary<List<long[]>> puts() {
    Arbitrary<Long> keys =
        Arbitraries.oneOf(
            Arbitraries.longs().between(-50, 50),
            Arbitraries.of(Long.MIN_VALUE, Long.MAX_VALUE, 0L),
            Arbitraries.longs());
    return keys.flatMap(k -> Arbitraries.longs().between(0, 1_000).map(v -> new long[] {k, v}))
        .list()
        .ofMaxSize(400);
  }

  @Property(tries = 300)
  void holdsTheHighestValuePutForEachKey(@ForAll("puts") List<long[]> puts) {
    LongMaxTable table = new LongMaxTable(puts.size() / 8);
    Map<Long, Long> expected = new HashMap<>();
    for (long[] put : puts) {
      table.putMax(put[0], put[1]);
      expected.merge(put[0], put[1], Math::max);
    }
    assertThat(table.size()).isEqualTo(expected.size());
    expected.forEach((key, value) -> assertThat(table.get(key)).isEqualTo(value));
    for (long absent = -60; absent < -50; absent++) {
      assertThat(table.get(absent)).isEqualTo(expected.getOrDefault(absent, Long.MIN_VALUE));
    }
  }
}
