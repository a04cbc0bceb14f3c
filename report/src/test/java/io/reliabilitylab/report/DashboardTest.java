package io.reliabilitylab.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DashboardTest {

  @TempDir Path directory;

  private RunDirectory runs;
  private String page;

  @BeforeEach
  void render() throws Exception {
    runs = DashboardSamples.write(directory);
    page = Dashboard.render(runs);
  }

  @Test
  void everyNumberFromJsonEqualsTheJson() throws Exception {
    List<PageNumbers.Shown> numbers = PageNumbers.read(page);
    PageNumbers.assertEqualToJson(numbers, directory);
    assertThat(numbers)
        .extracting(PageNumbers.Shown::pointer)
        .contains(
            "/summary/snapshot_diff_count",
            "/faults/0/recovery_ms",
            "/runs/1/snapshot_diff_count",
            "/runs/0/recovery_ms",
            "/checks/0/evidence/counts/missing",
            "/exercises/0/figures/max_lag_events",
            "/linkage/final/offsets/1/log_end_offset",
            "/dlq/0/original_value_length",
            "/timings_ms/reconcile");
    assertThat(numbers)
        .filteredOn(number -> number.pointer().equals("/summary/snapshot_diff_count"))
        .extracting(PageNumbers.Shown::document, PageNumbers.Shown::text)
        .contains(
            org.assertj.core.groups.Tuple.tuple(DashboardSamples.FAILING + ".json", "4"),
            org.assertj.core.groups.Tuple.tuple(DashboardSamples.PASSING + ".json", "0"));
  }

  @Test
  void anUnreadableRecordIsNamedAndTheOthersAreShown() throws Exception {
    // A record cut off mid-write, and a suite summary that is not JSON at all.
    String cut = Files.readString(directory.resolve(DashboardSamples.FAILING + ".json"));
    Files.writeString(directory.resolve("20261201T000000Z-0000dead.json"), cut.substring(0, 200));
    Files.writeString(directory.resolve("suite-broken.json"), "not json");

    RunDirectory read = RunDirectory.read(directory);
    String shown = Dashboard.render(read);

    assertThat(read.runs()).hasSameSizeAs(runs.runs());
    assertThat(read.suites()).hasSameSizeAs(runs.suites());
    assertThat(read.unreadable())
        .hasSize(2)
        .anySatisfy(line -> assertThat(line).startsWith("20261201T000000Z-0000dead.json: "))
        .anySatisfy(line -> assertThat(line).startsWith("suite-broken.json: "));
    assertThat(shown)
        .contains("<h2>Unreadable files</h2>")
        .contains("<code>20261201T000000Z-0000dead.json: ")
        .contains(runSection(DashboardSamples.PASSING).substring(0, 60));
  }

  @Test
  void aDirectoryOfOnlyUnreadableRecordsSaysSoInOneMessage(@TempDir Path other) throws Exception {
    Files.writeString(other.resolve("20261201T000000Z-0000dead.json"), "{");
    assertThatThrownBy(() -> RunDirectory.read(other))
        .hasMessageContaining("holds no readable run record")
        .hasMessageContaining("unreadable: 20261201T000000Z-0000dead.json: ");
  }

  @Test
  void aFailingRunIsMarkedFailed() {
    assertThat(runSection(DashboardSamples.FAILING))
        .startsWith("<section class=\"run failed\"")
        .contains("<span class=\"badge failed\" data-verdict=\"FAILED\">FAILED</span>")
        .contains("FAILED: this run did not pass.");
    assertThat(runSection(DashboardSamples.PASSING))
        .startsWith("<section class=\"run passed\"")
        .doesNotContain("FAILED");
    assertThat(page)
        .contains("<header class=\"page failed\"><h1>Reliability Lab run dashboard")
        .containsPattern(
            "<tr class=\"failed\"><td><a href=\"#run-"
                + DashboardSamples.FAILING
                + "\">.*?<span class=\"badge failed\" data-verdict=\"FAILED\">FAILED</span>");
  }

  @Test
  void aPoisonPayloadShowsOnlyItsHashAndLength() {
    assertThat(page)
        .contains(DashboardSamples.sha256(DashboardSamples.POISON_PAYLOAD))
        .doesNotContain("POISON-PAYLOAD-7f3a")
        .doesNotContain("cleartext");
  }

  @Test
  void textFromRecordsIsEscaped() {
    assertThat(page)
        .doesNotContain(DashboardSamples.MARKUP)
        .contains("&lt;script&gt;alert(&#39;x&amp;y&#39;)&lt;/script&gt; &amp; more");
    assertThat(page.split("<script>", -1)).as("only the page's own two scripts").hasSize(3);
  }

  @Test
  void thePageLoadsNothingFromTheNetwork() {
    assertThat(page)
        .contains("content=\"default-src 'none';")
        .doesNotContainPattern("(?i)\\bsrc\\s*=")
        .doesNotContainPattern("(?i)url\\(")
        .doesNotContainPattern("(?i)@import")
        .doesNotContainPattern("(?i)<link\\b")
        .doesNotContainPattern("(?i)<(img|iframe|object|embed)\\b");
    Matcher href = Pattern.compile("href=\"([^\"]*)\"").matcher(page);
    while (href.find()) {
      assertThat(href.group(1)).as("only links within the page").startsWith("#");
    }
    assertThat(page).doesNotContainPattern("(?i)(src|href|action)=\"https?://");
  }

  @Test
  void everyChartIsAnInlineSvgWithATitle() {
    int charts = page.split("<svg class=\"chart\"", -1).length - 1;
    assertThat(charts).isGreaterThanOrEqualTo(8);
    assertThat(page.split("<svg class=\"chart\"[^>]*><title>[^<]+</title>", -1))
        .hasSize(charts + 1);
    assertThat(page).contains("data-chart=\"timeline\"", "data-chart=\"checkpoint-duration\"");
    assertThat(page).contains("data-chart=\"commit-lag\"", "data-chart=\"suite-recovery\"");
  }

  private String runSection(String runId) {
    int start = page.indexOf("<section class=\"run ", page.indexOf("id=\"run-" + runId) - 40);
    int end = page.indexOf("</section>", start);
    return page.substring(start, end);
  }
}
