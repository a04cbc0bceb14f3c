package io.reliabilitylab.pipeline.broker.job;

import static org.assertj.core.api.Assertions.assertThat;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

class BinlogPositionProperties {

  @Provide
  Arbitrary<BinlogPosition> positions() {
    Arbitrary<String> files =
        Arbitraries.oneOf(
            Arbitraries.integers()
                .between(0, 2_000_000)
                .map(n -> "mysql-bin." + String.format("%06d", n)),
            Arbitraries.of("mysql-bin.000001", "mysql-bin.1", "other.000001", "mysql-bin", ""),
            Arbitraries.strings().withChars("ab.01").ofMaxLength(6));
    return Combinators.combine(
            files, Arbitraries.longs().between(0, 20), Arbitraries.integers().between(0, 3))
        .as(BinlogPosition::new);
  }

  @Property(tries = 2000)
  void isATotalOrder(
      @ForAll("positions") BinlogPosition a,
      @ForAll("positions") BinlogPosition b,
      @ForAll("positions") BinlogPosition c) {
    assertThat(Integer.signum(a.compareTo(b))).isEqualTo(-Integer.signum(b.compareTo(a)));
    assertThat(a.compareTo(b) == 0).isEqualTo(a.equals(b));
    if (a.compareTo(b) <= 0 && b.compareTo(c) <= 0) {
      assertThat(a.compareTo(c)).isNotPositive();
    }
  }

  @Property
  void aLaterFileOfTheSameBaseIsLaterWhateverTheOffset(@ForAll("positions") BinlogPosition a) {
    int number = 0;
    String file = a.binlogFile();
    if (file.startsWith("mysql-bin.") && file.substring(10).matches("\\d+")) {
      number = Integer.parseInt(file.substring(10));
    }
    BinlogPosition next =
        new BinlogPosition("mysql-bin." + String.format("%06d", number + 1), 0, 0);
    if (file.startsWith("mysql-bin.") && file.substring(10).matches("\\d+")) {
      assertThat(next).isGreaterThan(a);
    }
  }
}
