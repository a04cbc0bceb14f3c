package io.reliabilitylab.spi.archfixture;

import org.assertj.core.api.Assertions;

/** An "SPI" class that leans on a third-party library: the rule must reject it. */
public final class SpiTypeUsingALibrary {

  private SpiTypeUsingALibrary() {}

  /** Uses AssertJ, a library the SPI may not depend on. */
  public static void use() {
    Assertions.assertThat(1).isPositive();
  }
}
