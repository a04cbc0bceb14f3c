package io.reliabilitylab.report;

import static io.reliabilitylab.report.Html.escape;
import static io.reliabilitylab.report.Html.number;
import static io.reliabilitylab.report.Html.pointer;
import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.reliabilitylab.record.FaultRecord;
import io.reliabilitylab.record.RunRecord;
import io.reliabilitylab.record.SuiteSummary;
import io.reliabilitylab.spi.check.Verdict;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import org.apiguardian.api.API;

/**
 * Writes a directory of run records as one self-contained HTML page: the suite summary, then per
 * run its timeline, checkpoint and commit-lag charts, reconciliation table with evidence samples,
 * linkage, dead-letter records (hashes and lengths, never payloads), environment, stack and the
 * exact command. CSS, script and SVG charts are inline and a Content-Security-Policy forbids any
 * network load, so the page opens from disk anywhere.
 *
 * <pre>{@code
 * Path page = Dashboard.write(RunDirectory.read(Path.of("lab-runs")), Path.of("lab-runs/report.html"));
 * }</pre>
 *
 * <p>Every number on the page that comes from a JSON document carries the document ({@code
 * data-run="<run id>"} or {@code data-suite="<suite id>"}) and the JSON pointer of the value
 * ({@code data-field="/summary/snapshot_diff_count"}); numbers the page computes are marked {@code
 * derived}. A script records window errors and {@code console.error} calls into {@code
 * #console-errors} and the number of charts drawn with a non-zero size into {@code
 * #charts-rendered}.
 */
@API(status = EXPERIMENTAL)
public final class Dashboard {

  /** The file name {@code run} and {@code report} write the page to by default. */
  public static final String FILE_NAME = "report.html";

  private Dashboard() {}

  /** Renders the page and writes it to {@code file} (replacing it), returning the file. */
  public static Path write(RunDirectory runs, Path file) throws IOException {
    Objects.requireNonNull(file, "file");
    String page = render(runs);
    Path absolute = file.toAbsolutePath();
    Path parent = absolute.getParent();
    if (parent != null) {
      Files.createDirectories(parent);
    }
    Path temporary =
        Files.createTempFile(parent == null ? Path.of(".") : parent, ".report", ".html.tmp");
    try {
      Files.writeString(temporary, page, StandardCharsets.UTF_8);
      Files.move(temporary, absolute, StandardCopyOption.REPLACE_EXISTING);
    } finally {
      Files.deleteIfExists(temporary);
    }
    return absolute;
  }

  /** The page as HTML text. */
  public static String render(RunDirectory runs) {
    Objects.requireNonNull(runs, "runs");
    String overall = overallVerdict(runs);
    StringBuilder page = new StringBuilder(64 * 1024);
    page.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
        .append(
            "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none';"
                + " style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:\">\n")
        .append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n")
        .append("<title>")
        .append(escape("Reliability Lab dashboard: " + overall + " — " + runs.directory()))
        .append("</title>\n<style>")
        .append(PageAssets.CSS)
        .append("</style>\n<script>")
        .append(PageAssets.RECORDER)
        .append("</script>\n</head>\n<body class=\"")
        .append(Html.cssClass(overall))
        .append("\">\n<header class=\"page ")
        .append(Html.cssClass(overall))
        .append("\"><h1>Reliability Lab run dashboard ")
        .append(Html.badge(overall))
        .append("</h1><p>Directory <code>")
        .append(escape(runs.directory()))
        .append("</code>: ")
        .append(Html.derived(runs.runs().size()))
        .append(" run records, ")
        .append(Html.derived(runs.suites().size()))
        .append(" suite summaries. ")
        .append(
            "<label><input type=\"checkbox\" id=\"failed-only\"> show only runs that did not"
                + " pass</label></p></header>\n<main>\n");
    unreadable(page, runs);
    suites(page, runs);
    page.append("<section class=\"runs\">\n");
    for (RunRecord run : runs.runs()) {
      RunSection.render(page, run);
    }
    page.append("</section>\n")
        .append(
            "<section class=\"about\"><h2>How to read this page</h2><p>Numbers read from a run"
                + " record or suite summary are shown as they are in the JSON; numbers the page"
                + " computed (time offsets, intervals, lags) are in italics. Times are UTC."
                + " Dead-letter payloads appear only as SHA-256 and length, and error messages of"
                + " dead letters are left out because they may quote the payload.</p></section>\n")
        .append("</main>\n<footer><div id=\"console-errors\" data-count=\"0\">no console errors")
        .append("</div><div id=\"charts-rendered\" data-count=\"0\" data-total=\"0\"></div>")
        .append("</footer>\n<script>")
        .append(PageAssets.MEASURE)
        .append("</script>\n</body>\n</html>\n");
    return page.toString();
  }

  private static void unreadable(StringBuilder page, RunDirectory runs) {
    if (runs.unreadable().isEmpty()) {
      return;
    }
    page.append("<section class=\"unreadable\"><h2>Unreadable files</h2><p>")
        .append(runs.unreadable().size())
        .append(" file(s) in this directory could not be read and are not shown:</p><ul>");
    for (String file : runs.unreadable()) {
      page.append("<li><code>").append(escape(file)).append("</code></li>");
    }
    page.append("</ul></section>\n");
  }

  private static void suites(StringBuilder page, RunDirectory runs) {
    page.append("<section class=\"suite\"><h2>Suite summary</h2>\n");
    Set<String> inSuite = new HashSet<>();
    for (SuiteSummary suite : runs.suites()) {
      Html.Source source = Html.Source.suite(suite.suiteId());
      String verdict = suite.verdict().name();
      page.append("<div class=\"suite-block ")
          .append(Html.cssClass(verdict))
          .append("\" id=\"suite-")
          .append(escape(suite.suiteId()))
          .append("\"><h3>Suite ")
          .append(escape(suite.suiteId()))
          .append(' ')
          .append(Html.badge(verdict))
          .append("</h3><p>Exit code ")
          .append(number(source, "/exit_code", suite.exitCode().code()))
          .append(", ")
          .append(escape(suite.startedAt()))
          .append(" to ")
          .append(escape(suite.finishedAt()))
          .append(".</p><p>Command:</p><pre class=\"command\">")
          .append(escape(suite.command()))
          .append("</pre>\n<table class=\"summary\"><thead><tr><th>Run</th><th>Pipeline</th>")
          .append("<th>Failure class / scenario</th><th>Variant</th><th>Verdict</th>")
          .append("<th>Outcome for the suite</th><th>Recovery time (ms)</th>")
          .append("<th>Snapshot diff count</th></tr></thead><tbody>\n");
      List<Charts.Bar> recovery = new ArrayList<>();
      for (int i = 0; i < suite.runs().size(); i++) {
        SuiteSummary.Entry entry = suite.runs().get(i);
        inSuite.add(entry.runId());
        page.append("<tr class=\"")
            .append(Html.cssClass(entry.verdict().name()))
            .append("\"><td><a href=\"#run-")
            .append(escape(entry.runId()))
            .append("\">")
            .append(escape(entry.runId()))
            .append("</a></td><td>")
            .append(escape(entry.pipeline()))
            .append("</td><td>")
            .append(escape(entry.scenario()))
            .append("</td><td>")
            .append(escape(entry.variant()))
            .append("</td><td>")
            .append(Html.badge(entry.verdict().name()))
            .append("</td><td>")
            .append(escape(entry.outcome()))
            .append(entry.knownHazard() == null ? "" : "<br><small>" + escape(entry.knownHazard()))
            .append(entry.knownHazard() == null ? "" : "</small>")
            .append("</td><td>")
            .append(
                entry.recoveryTime() == null
                    ? "—"
                    : number(
                        source, pointer("runs", i, "recovery_ms"), entry.recoveryTime().toMillis()))
            .append("</td><td>")
            .append(
                number(
                    source, pointer("runs", i, "snapshot_diff_count"), entry.snapshotDiffCount()))
            .append("</td></tr>\n");
        if (entry.recoveryTime() != null) {
          recovery.add(
              new Charts.Bar(
                  entry.scenario() + (entry.variant() == null ? "" : ":" + entry.variant()),
                  entry.recoveryTime().toMillis(),
                  pointer("runs", i, "recovery_ms")));
        }
      }
      page.append("</tbody></table>\n");
      if (!recovery.isEmpty()) {
        page.append(
                "<figure><figcaption>Recovery time per failure class: from the fault taking effect"
                    + " to the latest of the job running again, the first checkpoint and the first"
                    + " sink commit after it (the longest of the run's faults).</figcaption>")
            .append(
                Charts.bars(
                    "suite-recovery", "Recovery time per failure class", source, recovery, "ms"))
            .append("</figure>\n");
      }
      page.append("</div>\n");
    }
    List<RunRecord> loose =
        runs.runs().stream().filter(run -> !inSuite.contains(run.runId())).toList();
    if (!loose.isEmpty()) {
      page.append(
              runs.suites().isEmpty()
                  ? "<p>No suite summary in this directory; each run record:</p>"
                  : "<h3>Runs without a suite summary</h3>")
          .append("<table class=\"summary\"><thead><tr><th>Run</th><th>Pipeline</th>")
          .append("<th>Failure class / scenario</th><th>Variant</th><th>Verdict</th>")
          .append("<th>Recovery time (ms)</th><th>Snapshot diff count</th></tr></thead><tbody>\n");
      for (RunRecord run : loose) {
        Html.Source source = Html.Source.run(run.runId());
        int longest = longestRecovery(run);
        page.append("<tr class=\"")
            .append(Html.cssClass(run.summary().verdict().name()))
            .append("\"><td><a href=\"#run-")
            .append(escape(run.runId()))
            .append("\">")
            .append(escape(run.runId()))
            .append("</a></td><td>")
            .append(escape(run.scenario().pipeline()))
            .append("</td><td>")
            .append(escape(run.scenario().name()))
            .append("</td><td>")
            .append(escape(run.scenario().variant()))
            .append("</td><td>")
            .append(Html.badge(run.summary().verdict().name()))
            .append("</td><td>")
            .append(
                longest < 0
                    ? "—"
                    : number(
                        source,
                        pointer("faults", longest, "recovery_ms"),
                        Objects.requireNonNull(run.faults().get(longest).recoveryTime())
                            .toMillis()))
            .append("</td><td>")
            .append(
                number(source, "/summary/snapshot_diff_count", run.summary().snapshotDiffCount()))
            .append("</td></tr>\n");
      }
      page.append("</tbody></table>\n");
    }
    page.append("</section>\n");
  }

  /** The index of the run's fault with the longest recovery, or -1 when none recovered. */
  static int longestRecovery(RunRecord run) {
    int longest = -1;
    for (int i = 0; i < run.faults().size(); i++) {
      FaultRecord fault = run.faults().get(i);
      if (fault.recoveryTime() != null
          && (longest < 0
              || fault
                      .recoveryTime()
                      .compareTo(Objects.requireNonNull(run.faults().get(longest).recoveryTime()))
                  > 0)) {
        longest = i;
      }
    }
    return longest;
  }

  /**
   * The worst of the suites' verdicts and of the verdicts of runs outside any suite: a suite counts
   * a run that detected its known hazard as passed.
   */
  private static String overallVerdict(RunDirectory runs) {
    Set<String> inSuite = new HashSet<>();
    List<Verdict> verdicts = new ArrayList<>();
    for (SuiteSummary suite : runs.suites()) {
      verdicts.add(suite.verdict());
      suite.runs().forEach(entry -> inSuite.add(entry.runId()));
    }
    runs.runs().stream()
        .filter(run -> !inSuite.contains(run.runId()))
        .forEach(run -> verdicts.add(run.summary().verdict()));
    if (verdicts.contains(Verdict.FAILED)) {
      return Verdict.FAILED.name();
    }
    if (verdicts.contains(Verdict.INCONCLUSIVE) || verdicts.isEmpty()) {
      return Verdict.INCONCLUSIVE.name();
    }
    return Verdict.PASSED.name();
  }
}
