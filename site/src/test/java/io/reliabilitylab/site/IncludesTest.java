package io.reliabilitylab.site;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class IncludesTest {

  @TempDir Path root;
  private Includes includes;

  @BeforeEach
  void writeSources() throws IOException {
    Path dir = Files.createDirectories(root.resolve("mod/src"));
    Files.writeString(
        dir.resolve("A.java"),
        """
        package a;

        class A {
          // region outer
          void run() {
            // region inner
            step();
            // endregion inner
          }
          // endregion
          // region open
          void never() {}
        }
        """);
    includes = Includes.from(root);
  }

  @Test
  void aRegionIsIncludedDedentedWithoutNestedMarkers() {
    String out =
        includes.expand("p.md", "# P\n\n<!-- include: mod/src/A.java#outer -->\n\nafter\n");
    assertThat(out).isEqualTo("# P\n\n```java\nvoid run() {\n  step();\n}\n```\n\nafter\n");
  }

  @Test
  void aWholeFileIsIncludedWithoutARegion() {
    assertThat(includes.expand("p.md", "<!-- include: mod/src/A.java -->"))
        .startsWith("```java\npackage a;\n")
        .doesNotContain("region");
  }

  @Test
  void anAliasReadsAPrefixFromAnotherDirectory(@TempDir Path other) throws IOException {
    Files.writeString(other.resolve("B.java"), "// region r\nint b;\n// endregion\n");
    String out =
        includes
            .withAlias("examples/thing", other)
            .expand("p.md", "<!-- include: examples/thing/B.java#r -->");
    assertThat(out).isEqualTo("```java\nint b;\n```\n");
  }

  @Test
  void directivesInsideFencedCodeAreLeftAlone() {
    String text = "```\n<!-- include: nothing/here.java -->\n```\n";
    assertThat(includes.expand("p.md", text)).isEqualTo(text);
    assertThat(Includes.hasDirective(text)).isFalse();
  }

  @Test
  void aMissingFileNamesPageLineAndPath() {
    assertThatThrownBy(() -> includes.expand("w.md", "x\n<!-- include: mod/src/Nope.java#a -->"))
        .isInstanceOf(SiteBuildException.class)
        .hasMessageContaining("w.md:2")
        .hasMessageContaining("mod/src/Nope.java does not exist");
  }

  @Test
  void aMissingRegionListsTheRegionsThere() {
    assertThatThrownBy(() -> includes.expand("w.md", "<!-- include: mod/src/A.java#nope -->"))
        .isInstanceOf(SiteBuildException.class)
        .hasMessageContaining("has no region 'nope'")
        .hasMessageContaining("its regions: inner, open, outer");
  }

  @Test
  void anUnterminatedRegionFails() {
    assertThatThrownBy(() -> includes.expand("w.md", "<!-- include: mod/src/A.java#open -->"))
        .isInstanceOf(SiteBuildException.class)
        .hasMessageContaining("region 'open'")
        .hasMessageContaining("has no '// endregion'");
  }

  @Test
  void aPathMayNotLeaveItsRoot() {
    assertThatThrownBy(() -> includes.expand("w.md", "<!-- include: ../etc/passwd -->"))
        .isInstanceOf(SiteBuildException.class)
        .hasMessageContaining("leaves");
  }
}
