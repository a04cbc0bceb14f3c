package io.reliabilitylab.site;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Renders the real docs once and checks every page, link and include of the result. */
class SiteGeneratorTest {

  private static final Pattern HREF = Pattern.compile("href=\"([^\"]*)\"");
  private static final Pattern ID = Pattern.compile(" id=\"([^\"]*)\"");

  @TempDir static Path output;
  private static SiteGenerator.Result result;

  static Path docs() {
    return Path.of(System.getProperty("site.docs", "src/docs"));
  }

  static SiteGenerator.Builder realSite(Path out) {
    return SiteGenerator.builder(docs(), out)
        .includeRoot(Path.of(System.getProperty("site.includeRoot", "..")))
        .includeAlias(
            "examples/custom-fault",
            Path.of(
                System.getProperty("site.customFaultExample", "src/test/fixtures/custom-fault")));
  }

  @BeforeAll
  static void generate() {
    result = realSite(output).build().generate();
  }

  @Test
  void everyMarkdownPageAndTheCatalogueAreRendered() throws IOException {
    List<String> expected = new ArrayList<>();
    try (Stream<Path> files = Files.list(docs())) {
      files
          .map(file -> file.getFileName().toString())
          .filter(name -> name.endsWith(".md"))
          .forEach(name -> expected.add(name.replaceFirst("\\.md$", ".html")));
    }
    expected.add("catalogue.html");
    assertThat(result.titles().keySet()).containsExactlyInAnyOrderElementsOf(expected);
    assertThat(result.titles().keySet())
        .startsWith(
            "index.html",
            "getting-started.html",
            "concepts.html",
            "architecture.html",
            "catalogue.html");
    for (String page : expected) {
      String html = read(page);
      assertThat(html).as(page).startsWith("<!DOCTYPE html>").contains("<main>\n<h1");
      assertThat(html).as(page).contains("aria-current=\"page\"");
      // self-contained: nothing is fetched from elsewhere
      assertThat(html).as(page).doesNotContain("<script", "<link ", "src=\"http");
    }
  }

  @Test
  void everyPageLinksEveryPageInItsNavigation() throws IOException {
    for (String page : result.titles().keySet()) {
      Set<String> hrefs = hrefs(read(page));
      assertThat(hrefs).as(page).containsAll(result.titles().keySet());
    }
  }

  @Test
  void noInternalLinkIsBrokenAndNoneStillPointsAtMarkdown() throws IOException {
    List<String> broken = new ArrayList<>();
    for (String page : result.titles().keySet()) {
      for (String href : hrefs(read(page))) {
        if (Markdown.isExternal(href)) {
          continue;
        }
        String[] parts = href.split("#", 2);
        String target = parts[0].isEmpty() ? page : parts[0];
        if (!result.titles().containsKey(target)) {
          broken.add(page + " -> " + href);
        } else if (parts.length == 2 && !ids(read(target)).contains(parts[1])) {
          broken.add(page + " -> " + href + " (no such heading)");
        }
      }
    }
    assertThat(broken).isEmpty();
  }

  @Test
  void includeDirectivesAreReplacedByCode() throws IOException {
    for (String page : result.titles().keySet()) {
      assertThat(read(page)).as(page).doesNotContain("include:");
    }
    String plugin = read("writing-a-plugin.html");
    assertThat(plugin)
        .contains("<pre><code class=\"language-java\">")
        .contains("@AutoService(FaultInjector.class)")
        .contains("extends FaultInjectorContract")
        .contains("awaitRecovery")
        .doesNotContain("// region", "// endregion");
  }

  @Test
  void aBrokenLinkFailsTheBuildNamingPageAndTarget(@TempDir Path dir) throws IOException {
    Path docs = Files.createDirectories(dir.resolve("docs"));
    Files.writeString(
        docs.resolve("index.md"),
        "# Home\n\n[ok](other.md#part) [bad](missing.md) [anchor](other.md#nope)\n");
    Files.writeString(docs.resolve("other.md"), "# Other\n\n## Part\n");
    // the generated catalogue links to these two
    Files.writeString(docs.resolve("runbooks.md"), "# Runbooks\n");
    Files.writeString(docs.resolve("writing-a-plugin.md"), "# Plugins\n");
    assertThatThrownBy(() -> SiteGenerator.builder(docs, dir.resolve("out")).build().generate())
        .isInstanceOf(SiteBuildException.class)
        .hasMessageContaining("2 broken link(s)")
        .hasMessageContaining("index.md links to 'missing.html': there is no page missing.md")
        .hasMessageContaining("page other.md has no heading with id 'nope'");
  }

  @Test
  void aMissingIncludeFailsTheBuild(@TempDir Path dir) throws IOException {
    Path docs = Files.createDirectories(dir.resolve("docs"));
    Files.writeString(
        docs.resolve("index.md"), "# Home\n\n<!-- include: examples/none/X.java#main -->\n");
    assertThatThrownBy(
            () ->
                SiteGenerator.builder(docs, dir.resolve("out")).includeRoot(dir).build().generate())
        .isInstanceOf(SiteBuildException.class)
        .hasMessageContaining("index.md:3")
        .hasMessageContaining("examples/none/X.java does not exist");
  }

  @Test
  void aHandWrittenCatalogueIsRefused(@TempDir Path dir) throws IOException {
    Path docs = Files.createDirectories(dir.resolve("docs"));
    Files.writeString(docs.resolve("catalogue.md"), "# Mine\n");
    assertThatThrownBy(() -> SiteGenerator.builder(docs, dir.resolve("out")).build().generate())
        .isInstanceOf(SiteBuildException.class)
        .hasMessageContaining("generated from the discovered plugins");
  }

  @Test
  void mainWritesTheSite(@TempDir Path dir) {
    SiteGenerator.main(
        new String[] {
          "--docs=" + docs(),
          "--out=" + dir,
          "--include-root=" + System.getProperty("site.includeRoot", ".."),
          "--include-alias=examples/custom-fault="
              + System.getProperty("site.customFaultExample", "src/test/fixtures/custom-fault")
        });
    assertThat(dir.resolve("index.html")).isRegularFile();
    assertThatThrownBy(() -> SiteGenerator.main(new String[] {"--nope"}))
        .hasMessageContaining("Unknown argument '--nope'");
  }

  static String read(String page) throws IOException {
    return Files.readString(output.resolve(page), StandardCharsets.UTF_8);
  }

  private static Set<String> hrefs(String html) {
    Set<String> hrefs = new HashSet<>();
    Matcher matcher = HREF.matcher(html);
    while (matcher.find()) {
      hrefs.add(matcher.group(1).replace("&amp;", "&"));
    }
    return hrefs;
  }

  private static Set<String> ids(String html) {
    Set<String> ids = new HashSet<>();
    Matcher matcher = ID.matcher(html);
    while (matcher.find()) {
      ids.add(matcher.group(1));
    }
    return ids;
  }

  @Test
  void headingsGetGitHubStyleIds() {
    Markdown.Rendered page =
        new Markdown()
            .render("x.md", "# Title\n\n## Faults, variants and exercises\n\n## A\n\n## A\n");
    assertThat(page.anchors()).contains("faults-variants-and-exercises", "a", "a-1");
    assertThat(Markdown.rewrite("broker.md#checks")).isEqualTo("broker.html#checks");
    assertThat(Markdown.rewrite("https://example.com/x.md")).isEqualTo("https://example.com/x.md");
    assertThat(Map.of("k", Markdown.slug("`task-failure`"))).containsEntry("k", "task-failure");
  }
}
