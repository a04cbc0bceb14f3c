package io.reliabilitylab.source.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PostgresBinariesTest {

  @TempDir Path root;

  /** A bin directory whose postgres prints a version, as the real one does. */
  private Path installation(String major, String version) throws IOException {
    Path bin = Files.createDirectories(root.resolve(major).resolve("bin"));
    executable(bin.resolve("postgres"), "echo 'postgres (PostgreSQL) " + version + "'");
    executable(bin.resolve("initdb"), "exit 0");
    return bin;
  }

  private static void executable(Path file, String body) throws IOException {
    Files.writeString(file, "#!/bin/sh\n" + body + "\n");
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
  }

  @Test
  void theNewestMajorVersionWins() throws IOException {
    installation("9", "9.6.24");
    Path newest = installation("15", "15.14 (Debian 15.14-0+deb12u1)");
    installation("13", "13.2");
    Files.createDirectories(root.resolve("16").resolve("bin")); // no server in it

    PostgresBinaries found = PostgresBinaries.find(null, root);

    assertThat(found.bin()).isEqualTo(newest);
    assertThat(found.version()).isEqualTo("15.14");
  }

  @Test
  void theConfiguredDirectoryOrItsBinIsTaken() throws IOException {
    Path bin = installation("14", "14.1");
    Path other = Files.createDirectories(root.resolve("other"));
    installation("17", "17.6");

    assertThat(PostgresBinaries.find(bin.toString(), other).bin()).isEqualTo(bin);
    assertThat(PostgresBinaries.find(bin.getParent().toString(), other).bin()).isEqualTo(bin);
  }

  @Test
  void noServerIsOneLineThatSaysWhatToInstall() {
    assertThatThrownBy(() -> PostgresBinaries.find(null, root.resolve("absent")))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("apt-get install postgresql")
        .hasMessageContaining(PostgresBinaries.ENVIRONMENT)
        .hasMessageNotContaining("\n");
    assertThatThrownBy(() -> PostgresBinaries.find(root.toString(), root))
        .hasMessageStartingWith(PostgresBinaries.ENVIRONMENT + "=" + root)
        .hasMessageContaining("unset it");
  }

  @Test
  void theVersionIsReadFromTheServersOwnWords() {
    assertThat(
            PostgresBinaries.parseVersion("postgres (PostgreSQL) 15.14 (Debian 15.14-0+deb12u1)"))
        .contains("15.14");
    assertThat(PostgresBinaries.parseVersion("something else")).isEmpty();
  }
}
