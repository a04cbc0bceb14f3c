package io.reliabilitylab.site;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The getting-started page shows the README's two commands, character for character. */
class GettingStartedTest {

  private static final Pattern TWO_COMMANDS =
      Pattern.compile("## The two commands\\R.*?```bash\\R(.*?)```", Pattern.DOTALL);

  @Test
  void thePageHasTheReadmesCommands() throws IOException {
    List<String> readme =
        commands(Files.readString(Path.of(System.getProperty("site.readme", "../README.md"))));
    List<String> page =
        commands(Files.readString(SiteGeneratorTest.docs().resolve("getting-started.md")));
    assertThat(readme).hasSize(2);
    assertThat(page).isEqualTo(readme);
  }

  private static List<String> commands(String markdown) {
    Matcher block = TWO_COMMANDS.matcher(markdown);
    assertThat(block.find()).as("a '## The two commands' section with a ```bash block").isTrue();
    return block
        .group(1)
        .lines()
        .map(String::strip)
        .filter(l -> !l.isEmpty() && !l.startsWith("#"))
        .toList();
  }
}
