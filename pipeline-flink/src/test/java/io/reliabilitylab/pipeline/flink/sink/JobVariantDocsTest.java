package io.reliabilitylab.pipeline.flink.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** Every broken job variant is documented where users look for the negative controls. */
class JobVariantDocsTest {

  private static final Path DOC = Path.of("..", "site", "src", "docs", "negative-controls.md");

  @Test
  void everyBrokenVariantIsOnTheNegativeControlsPageAndTheFaultSensitiveOnesInItsTable()
      throws IOException {
    String doc = Files.readString(DOC, StandardCharsets.UTF_8);
    String table =
        String.join(
            "\n",
            doc.lines()
                .dropWhile(line -> !line.startsWith("| failure class"))
                .takeWhile(line -> line.startsWith("|"))
                .toList());
    Arrays.stream(JobVariant.values())
        .filter(JobVariant::broken)
        .forEach(
            variant -> {
              assertThat(doc).as("%s on %s", variant, DOC).contains("`" + variant.text() + "`");
              if (variant != JobVariant.BROKEN_CURRENT_APPEND) {
                assertThat(table)
                    .as("%s in the class table of %s", variant, DOC)
                    .contains("`" + variant.text() + "`");
              }
            });
  }

  @Test
  void anUnknownVariantIsRefusedNamingTheKnownOnes() {
    assertThatThrownBy(() -> JobVariant.parse("broken-everything"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("broken-changelog-at-least-once")
        .hasMessageContaining("broken-dedup-last-only");
    assertThat(JobVariant.parse(" Broken-Source-Not-Restored "))
        .isEqualTo(JobVariant.BROKEN_SOURCE_NOT_RESTORED);
  }
}
