package io.reliabilitylab.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The dashboard in a real browser: Debian's headless Chromium loads the page from disk, and the
 * test reads the DOM after the page's scripts ran. No console error, every chart drawn with a
 * non-zero size, the failing run marked failed, and every number equal to its JSON. The screenshot
 * is kept as a build artifact in {@code target/dashboard/}.
 *
 * <p>Without a {@code chromium} on the PATH the test is skipped, unless the variable {@code CI} is
 * set: {@code .ci/run} installs Chromium, so there its absence is a failure.
 */
class DashboardChromiumIT {

  private static final long BROWSER_TIMEOUT_SECONDS = 120;

  @TempDir static Path directory;
  @TempDir static Path profile;

  private static Path chromium;
  private static Path artifacts;
  private static Path page;
  private static String dom;

  @BeforeAll
  static void renderInChromium() throws Exception {
    Optional<Path> found = onPath("chromium");
    if (found.isEmpty()) {
      if (System.getenv("CI") != null) {
        fail("CI is set but no 'chromium' is on the PATH; .ci/run installs Debian's chromium");
      }
      Assumptions.abort(
          "no 'chromium' on the PATH; install it (apt-get install chromium) to run this test");
    }
    chromium = found.orElseThrow();
    DashboardSamples.write(directory);
    artifacts = Path.of(System.getProperty("basedir", "."), "target", "dashboard").toAbsolutePath();
    Files.createDirectories(artifacts);
    page = Dashboard.write(RunDirectory.read(directory), artifacts.resolve("dashboard.html"));
    dom = browse("--dump-dom", page.toUri().toString());
  }

  @Test
  void thePageLoadsWithoutConsoleErrors() {
    assertThat(attribute("console-errors", "data-count"))
        .as("console errors: %s", element("console-errors"))
        .isEqualTo("0");
  }

  @Test
  void everyChartRendersWithANonZeroSize() {
    int charts = count(dom, "<svg class=\"chart\"");
    assertThat(charts).isGreaterThan(0);
    assertThat(attribute("charts-rendered", "data-total")).isEqualTo(Integer.toString(charts));
    assertThat(attribute("charts-rendered", "data-count")).isEqualTo(Integer.toString(charts));
    assertThat(count(dom, "data-rendered=\"true\"")).isEqualTo(charts);
  }

  @Test
  void theFailingRunIsMarkedFailed() {
    Matcher section =
        Pattern.compile(
                "<section class=\"run failed\" id=\"run-"
                    + DashboardSamples.FAILING
                    + "\"[^>]*>(.*?)</section>",
                Pattern.DOTALL)
            .matcher(dom);
    assertThat(section.find()).as("the failing run's section has class 'failed'").isTrue();
    assertThat(section.group(1))
        .contains("<span class=\"badge failed\" data-verdict=\"FAILED\">FAILED</span>")
        .contains("FAILED: this run did not pass.");
    assertThat(dom).contains("<header class=\"page failed\">");
  }

  @Test
  void everyNumberOnThePageEqualsItsJson() throws IOException {
    List<PageNumbers.Shown> numbers = PageNumbers.read(dom);
    assertThat(numbers).hasSize(PageNumbers.read(Files.readString(page)).size()).isNotEmpty();
    PageNumbers.assertEqualToJson(numbers, directory);
  }

  @Test
  void aScreenshotIsKept() throws Exception {
    Path screenshot = artifacts.resolve("dashboard.png");
    Files.deleteIfExists(screenshot);
    browse("--screenshot=" + screenshot, "--window-size=1400,3000", page.toUri().toString());
    assertThat(screenshot).exists();
    assertThat(Files.size(screenshot)).isGreaterThan(10_000);
    System.out.println("Dashboard screenshot: " + screenshot);
  }

  private static String browse(String... arguments) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>();
    command.add(chromium.toString());
    command.add("--headless=new");
    command.add("--no-sandbox");
    command.add("--disable-gpu");
    command.add("--user-data-dir=" + profile);
    command.addAll(List.of(arguments));
    Path stdout = Files.createTempFile(profile.getParent(), "chromium", ".out");
    Path stderr = Files.createTempFile(profile.getParent(), "chromium", ".err");
    Process browser =
        new ProcessBuilder(command)
            .redirectOutput(stdout.toFile())
            .redirectError(stderr.toFile())
            .start();
    if (!browser.waitFor(BROWSER_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
      browser.destroyForcibly().waitFor();
      fail("chromium did not finish within %d s: %s", BROWSER_TIMEOUT_SECONDS, command);
    }
    assertThat(browser.exitValue())
        .as("chromium %s; stderr: %s", command, Files.readString(stderr))
        .isZero();
    return Files.readString(stdout, StandardCharsets.UTF_8);
  }

  private static Optional<Path> onPath(String program) {
    String path = System.getenv("PATH");
    if (path == null) {
      return Optional.empty();
    }
    for (String entry : path.split(File.pathSeparator, -1)) {
      if (entry.isBlank()) {
        continue;
      }
      Path candidate = Path.of(entry, program);
      if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
        return Optional.of(candidate);
      }
    }
    return Optional.empty();
  }

  private static String element(String id) {
    Matcher matcher = Pattern.compile("<div id=\"" + id + "\"[^>]*>([^<]*)</div>").matcher(dom);
    assertThat(matcher.find()).as("element #%s in the DOM", id).isTrue();
    return matcher.group(1);
  }

  private static String attribute(String id, String name) {
    Matcher matcher = Pattern.compile("<div id=\"" + id + "\"([^>]*)>").matcher(dom);
    assertThat(matcher.find()).as("element #%s in the DOM", id).isTrue();
    Matcher value = Pattern.compile(name + "=\"([^\"]*)\"").matcher(matcher.group(1));
    assertThat(value.find()).as("#%s has %s", id, name).isTrue();
    return value.group(1);
  }

  private static int count(String text, String needle) {
    return text.split(Pattern.quote(needle), -1).length - 1;
  }
}
