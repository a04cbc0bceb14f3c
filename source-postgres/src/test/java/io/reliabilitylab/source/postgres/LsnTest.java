package io.reliabilitylab.source.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.LongRange;
import org.junit.jupiter.api.Test;

class LsnTest {

  @Test
  void readsTheServersTextForm() {
    assertThat(Lsn.parse("0/1A2B3C")).isEqualTo(0x1A2B3CL);
    assertThat(Lsn.parse("16/B374D848")).isEqualTo(0x16_B374_D848L);
    assertThat(Lsn.format(0x16_B374_D848L)).isEqualTo("16/B374D848");
  }

  @Test
  void refusesWhatIsNoLsn() {
    assertThatThrownBy(() -> Lsn.parse("B374D848")).hasMessageContaining("Not an LSN");
    assertThatThrownBy(() -> Lsn.parse("1/100000000")).hasMessageContaining("exceeds 32 bits");
  }

  @Property
  void formatAndParseAgree(@ForAll @LongRange(min = 0) long lsn) {
    assertThat(Lsn.parse(Lsn.format(lsn))).isEqualTo(lsn);
  }
}
