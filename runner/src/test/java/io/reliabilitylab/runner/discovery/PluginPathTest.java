package io.reliabilitylab.runner.discovery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.File;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class PluginPathTest {

  private static final String SEPARATOR = File.pathSeparator;

  @Test
  void splitsOnThePlatformsPathSeparatorInOrder() {
    PluginPath path = PluginPath.parse("/opt/lab/extra.jar" + SEPARATOR + "plugins-of-mine");
    assertThat(path.entries())
        .containsExactly(Path.of("/opt/lab/extra.jar"), Path.of("plugins-of-mine"));
  }

  @Test
  void skipsEmptyEntriesAndSurroundingBlanks() {
    PluginPath path = PluginPath.parse(SEPARATOR + " a.jar " + SEPARATOR + SEPARATOR + "  ");
    assertThat(path.entries()).containsExactly(Path.of("a.jar"));
  }

  @Test
  void nothingIsTheEmptyPath() {
    assertThat(PluginPath.parse(null).isEmpty()).isTrue();
    assertThat(PluginPath.parse("").isEmpty()).isTrue();
    assertThat(PluginPath.parse("   ").isEmpty()).isTrue();
    assertThat(PluginPath.parse(SEPARATOR).isEmpty()).isTrue();
    assertThat(PluginPath.empty().entries()).isEmpty();
  }

  @Test
  void anEntryThatIsNoPathIsOneLineNamingIt() {
    assertThatThrownBy(() -> PluginPath.parse("good.jar" + SEPARATOR + "bad\u0000.jar"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("'bad\u0000.jar' on the plugin path is not a path")
        .hasMessageNotContaining("\n");
  }

  @Test
  void plusAppendsAndTheTextParsesBack() {
    PluginPath path = PluginPath.of(Path.of("a.jar")).plus(PluginPath.parse("b" + SEPARATOR + "c"));
    assertThat(path.entries()).containsExactly(Path.of("a.jar"), Path.of("b"), Path.of("c"));
    assertThat(path.toString()).isEqualTo("a.jar" + SEPARATOR + "b" + SEPARATOR + "c");
    assertThat(PluginPath.parse(path.toString())).isEqualTo(path);
  }
}
