package io.reliabilitylab.report;

import static io.reliabilitylab.report.Html.escape;
import static io.reliabilitylab.report.Html.number;
import static io.reliabilitylab.report.Html.pointer;

import io.reliabilitylab.record.Diagnostics;
import io.reliabilitylab.record.EnvironmentInfo;
import io.reliabilitylab.record.ExerciseRecord;
import io.reliabilitylab.record.FaultRecord;
import io.reliabilitylab.record.Quarantine;
import io.reliabilitylab.record.RunRecord;
import io.reliabilitylab.record.Summary;
import io.reliabilitylab.spi.check.CheckResult;
import io.reliabilitylab.spi.check.DlqRecord;
import io.reliabilitylab.spi.check.EvidenceSample;
import io.reliabilitylab.spi.check.LinkageRecord;
import io.reliabilitylab.spi.check.Verdict;
import io.reliabilitylab.spi.fault.RecoveryEvidence;
import io.reliabilitylab.spi.pipeline.CheckpointInfo;
import io.reliabilitylab.spi.pipeline.JobFailure;
import io.reliabilitylab.spi.pipeline.SnapshotInfo;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/** One run record as a section of the dashboard. */
final class RunSection {

  private final StringBuilder page;
  private final RunRecord run;
  private final Html.Source source;

  private RunSection(StringBuilder page, RunRecord run) {
    this.page = page;
    this.run = run;
    this.source = Html.Source.run(run.runId());
  }

  static void render(StringBuilder page, RunRecord run) {
    new RunSection(page, run).render();
  }

  private void render() {
    Summary summary = run.summary();
    String verdict = summary.verdict().name();
    page.append("<section class=\"run ")
        .append(Html.cssClass(verdict))
        .append("\" id=\"run-")
        .append(escape(run.runId()))
        .append("\" data-run-id=\"")
        .append(escape(run.runId()))
        .append("\" data-verdict=\"")
        .append(escape(verdict))
        .append("\">\n<h2>")
        .append(escape(run.scenario().pipeline() + " / " + run.scenario().name()))
        .append(
            run.scenario().variant() == null ? "" : " (" + escape(run.scenario().variant()) + ")")
        .append(' ')
        .append(Html.badge(verdict))
        .append("</h2>\n<p class=\"note\">Run <code>")
        .append(escape(run.runId()))
        .append("</code>, ")
        .append(escape(run.startedAt()))
        .append(" to ")
        .append(escape(run.finishedAt()))
        .append(" (")
        .append(Html.derived(millis(run.startedAt(), run.finishedAt())))
        .append(" ms), exit code ")
        .append(number(source, "/summary/exit_code", summary.exitCode().code()))
        .append(
            run.gitSha() == null ? "" : ", lab revision <code>" + escape(run.gitSha()) + "</code>")
        .append(".</p>\n");
    if (summary.verdict() == Verdict.FAILED) {
      page.append("<p class=\"failed-text\">FAILED: this run did not pass.</p>\n");
    }
    if (run.scenario().knownHazard() != null) {
      page.append("<p class=\"note\">Known upstream hazard this scenario reproduces: ")
          .append(escape(run.scenario().knownHazard()))
          .append("</p>\n");
    }
    summary();
    timeline();
    faults();
    checkpointCharts();
    commitLagCharts();
    exercises();
    reconciliation();
    linkage();
    deadLetters();
    snapshots();
    diagnostics();
    environment();
    page.append("</section>\n");
  }

  private void summary() {
    Summary summary = run.summary();
    page.append("<table class=\"counts\"><tbody><tr><th>Checks passed</th><td>")
        .append(number(source, "/summary/checks_passed", summary.checksPassed()))
        .append("</td><th>failed</th><td>")
        .append(number(source, "/summary/checks_failed", summary.checksFailed()))
        .append("</td><th>inconclusive</th><td>")
        .append(number(source, "/summary/checks_inconclusive", summary.checksInconclusive()))
        .append("</td></tr><tr><th>Faults fired</th><td>")
        .append(number(source, "/summary/faults_fired", summary.faultsFired()))
        .append("</td><th>not proven</th><td>")
        .append(number(source, "/summary/faults_not_proven", summary.faultsNotProven()))
        .append("</td><th>skipped</th><td>")
        .append(number(source, "/summary/faults_skipped", summary.faultsSkipped()))
        .append("</td></tr><tr><th>Snapshot diff count</th><td>")
        .append(number(source, "/summary/snapshot_diff_count", summary.snapshotDiffCount()))
        .append("</td><th>Dead letters</th><td>")
        .append(number(source, "/summary/dlq_record_count", summary.dlqRecordCount()))
        .append("</td><th>Seed</th><td>")
        .append(number(source, "/scenario/seed", run.scenario().seed()))
        .append("</td></tr><tr><th>Baseline events</th><td>")
        .append(number(source, "/scenario/baseline_events", run.scenario().baselineEvents()))
        .append("</td><th>Post-fault events</th><td>")
        .append(number(source, "/scenario/post_fault_events", run.scenario().postFaultEvents()))
        .append("</td><th>Workload SHA-256</th><td class=\"hash\">")
        .append(escape(run.scenario().workloadDigest()))
        .append("</td></tr></tbody></table>\n");
    if (!summary.reasons().isEmpty()) {
      page.append("<h4>Why it did not pass</h4><ul class=\"reasons\">");
      summary
          .reasons()
          .forEach(reason -> page.append("<li>").append(escape(reason)).append("</li>"));
      page.append("</ul>\n");
    }
    if (summary.error() != null) {
      page.append("<p class=\"failed-text\">Error: ")
          .append(escape(summary.error()))
          .append("</p>\n");
    }
    page.append("<h4>Command</h4><pre class=\"command\">")
        .append(escape(run.command().isBlank() ? "(not recorded)" : run.command()))
        .append("</pre>\n<p><b>Claim boundary:</b> ")
        .append(escape(run.claimBoundary()))
        .append("</p>\n");
  }

  private void timeline() {
    Instant start = run.startedAt();
    long total = millis(start, run.finishedAt());
    List<Charts.Band> bands = new ArrayList<>();
    List<Charts.Mark> marks = new ArrayList<>();
    long cursor = 0;
    for (FaultRecord fault : run.faults()) {
      long injected = millis(start, fault.injectedAt());
      if (injected > cursor) {
        bands.add(
            new Charts.Band(
                cursor == 0 ? "baseline" : "between faults", cursor, injected, "baseline"));
      }
      marks.add(new Charts.Mark("inject " + fault.spec().fault(), injected, "inject"));
      long effect =
          fault.evidence().firedAt() == null ? injected : millis(start, fault.evidence().firedAt());
      if (effect > injected) {
        bands.add(new Charts.Band("injecting " + fault.spec().fault(), injected, effect, "fault"));
      }
      if (fault.recoveredAt() != null) {
        long recovered = millis(start, fault.recoveredAt());
        bands.add(
            new Charts.Band(
                "recovering from " + fault.spec().fault(), effect, recovered, "recovery"));
        marks.add(new Charts.Mark("recovered", recovered, "recovered"));
        cursor = Math.max(recovered, effect);
      } else {
        cursor = Math.max(effect, injected);
      }
    }
    Duration reconcile = run.timings().get("reconcile");
    long checksFrom = reconcile == null ? total : Math.max(cursor, total - reconcile.toMillis());
    if (checksFrom > cursor) {
      bands.add(
          new Charts.Band(
              run.faults().isEmpty() ? "baseline" : "after recovery",
              cursor,
              checksFrom,
              run.faults().isEmpty() ? "baseline" : "after"));
    }
    if (total > checksFrom) {
      bands.add(new Charts.Band("checks", checksFrom, total, "checks"));
    }
    marks.add(new Charts.Mark("checked", total, "checked"));
    List<Long> commits =
        run.snapshots().stream().map(snapshot -> millis(start, snapshot.committedAt())).toList();
    page.append(
            "<h3>Timeline</h3><figure><figcaption>From the run's start to its end (the record's"
                + " started_at and finished_at): the baseline, each fault from injection to the"
                + " moment it took effect (red) and to recovery (orange: the job running, a"
                + " checkpoint and a sink commit after it), the rest of the workload, and the final"
                + " checks (purple, from the reconcile phase's duration). Short ticks under the"
                + " bands are sink snapshot commits.</figcaption>")
        .append(Charts.timeline("Timeline of run " + run.runId(), total, bands, marks, commits))
        .append("</figure>\n");
    if (!run.timings().isEmpty()) {
      page.append(
          "<table class=\"timings\"><thead><tr><th>Phase</th><th>Took (ms)</th></tr></thead><tbody>");
      run.timings()
          .forEach(
              (phase, took) ->
                  page.append("<tr><td>")
                      .append(escape(phase))
                      .append("</td><td>")
                      .append(number(source, pointer("timings_ms", phase), took.toMillis()))
                      .append("</td></tr>"));
      page.append("</tbody></table>\n");
    }
  }

  private void faults() {
    if (run.faults().isEmpty()) {
      page.append("<p class=\"note\">No fault was injected in this run.</p>\n");
      return;
    }
    page.append(
        "<h3>Faults</h3><table class=\"faults\"><thead><tr><th>Fault</th><th>Position</th>"
            + "<th>Status</th><th>Injected at</th><th>Took effect at</th><th>Recovered at</th>"
            + "<th>Recovery (ms)</th><th>Restarts</th><th>First checkpoint</th>"
            + "<th>First commit snapshot</th><th>What and proofs</th></tr></thead><tbody>\n");
    for (int i = 0; i < run.faults().size(); i++) {
      FaultRecord fault = run.faults().get(i);
      RecoveryEvidence recovery = fault.recovery();
      String status = fault.evidence().status().name();
      page.append("<tr class=\"")
          .append(fault.evidence().fired() ? "" : "failed")
          .append("\"><td>")
          .append(escape(fault.spec().fault()))
          .append("<br><small>")
          .append(escape(fault.spec().id()))
          .append("</small></td><td>")
          .append(escape(fault.spec().position().text()))
          .append("</td><td>")
          .append(escape(status))
          .append("</td><td>")
          .append(escape(fault.injectedAt()))
          .append("</td><td>")
          .append(escape(fault.evidence().firedAt()))
          .append("</td><td>")
          .append(escape(fault.recoveredAt()))
          .append("</td><td>")
          .append(
              fault.recoveryTime() == null
                  ? "—"
                  : number(
                      source, pointer("faults", i, "recovery_ms"), fault.recoveryTime().toMillis()))
          .append("</td><td>")
          .append(
              recovery == null
                  ? "—"
                  : number(
                      source, pointer("faults", i, "recovery", "restarts"), recovery.restarts()))
          .append("</td><td>")
          .append(
              recovery == null || recovery.firstCheckpointId() == null
                  ? "—"
                  : number(
                      source,
                      pointer("faults", i, "recovery", "first_checkpoint_id"),
                      recovery.firstCheckpointId()))
          .append("</td><td>")
          .append(
              recovery == null || recovery.firstCommitSnapshotId() == null
                  ? "—"
                  : number(
                      source,
                      pointer("faults", i, "recovery", "first_commit_snapshot_id"),
                      recovery.firstCommitSnapshotId()))
          .append("</td><td>")
          .append(escape(fault.evidence().what()));
      if (!fault.evidence().proofs().isEmpty()) {
        page.append("<ul>");
        fault
            .evidence()
            .proofs()
            .forEach(proof -> page.append("<li>").append(escape(proof)).append("</li>"));
        page.append("</ul>");
      }
      if (!fault.evidence().reason().isBlank()) {
        page.append("<p class=\"failed-text\">")
            .append(escape(fault.evidence().reason()))
            .append("</p>");
      }
      page.append("</td></tr>\n");
    }
    page.append("</tbody></table>\n");
  }

  /**
   * The checkpoint-duration chart: the time between successive committed checkpoints of each sink
   * table (from the snapshots' committed checkpoint ids and commit times), plus any checkpoint
   * durations an exercise measured.
   */
  private void checkpointCharts() {
    page.append("<h3>Checkpoints</h3>\n");
    Map<String, List<Charts.Bar>> perTable = new LinkedHashMap<>();
    Map<String, SnapshotInfo> previous = new LinkedHashMap<>();
    List<SnapshotInfo> ordered =
        run.snapshots().stream()
            .filter(snapshot -> snapshot.committedCheckpointId() != null)
            .sorted(Comparator.comparing(SnapshotInfo::committedAt))
            .toList();
    for (SnapshotInfo snapshot : ordered) {
      SnapshotInfo before = previous.put(snapshot.table(), snapshot);
      if (before != null
          && !Objects.equals(before.committedCheckpointId(), snapshot.committedCheckpointId())) {
        perTable
            .computeIfAbsent(snapshot.table(), table -> new ArrayList<>())
            .add(
                new Charts.Bar(
                    "checkpoint "
                        + before.committedCheckpointId()
                        + " → "
                        + snapshot.committedCheckpointId(),
                    millis(before.committedAt(), snapshot.committedAt()),
                    null));
      }
    }
    boolean drawn = false;
    for (Map.Entry<String, List<Charts.Bar>> table : perTable.entrySet()) {
      page.append("<figure><figcaption>Checkpoint duration on <code>")
          .append(escape(table.getKey()))
          .append(
              "</code>: the time from one committed checkpoint to the next, from the commit times"
                  + " of the sink's snapshots and the checkpoint id each records"
                  + " (flink.max-committed-checkpoint-id). It is the checkpoint interval plus the"
                  + " time a checkpoint took to complete and commit; a long bar is a slow, failed"
                  + " or interrupted checkpoint (for example during a fault).</figcaption>")
          .append(
              Charts.bars(
                  "checkpoint-duration",
                  "Time between committed checkpoints on " + table.getKey(),
                  source,
                  table.getValue(),
                  "ms"))
          .append("</figure>\n");
      drawn = true;
    }
    for (int e = 0; e < run.exercises().size(); e++) {
      List<Charts.Line> lines = series(e, "checkpoint");
      if (!lines.isEmpty()) {
        page.append("<figure><figcaption>Checkpoint durations the exercise <code>")
            .append(escape(run.exercises().get(e).name()))
            .append("</code> measured (ms), over seconds since it started.</figcaption>")
            .append(
                Charts.lines(
                    "checkpoint-duration-measured", "Measured checkpoint durations", source, lines))
            .append("</figure>\n");
        drawn = true;
      }
    }
    Diagnostics dump = run.diagnostics();
    if (dump != null) {
      List<Charts.Bar> last = new ArrayList<>();
      for (int i = 0; i < dump.lastCheckpoints().size(); i++) {
        CheckpointInfo checkpoint = dump.lastCheckpoints().get(i);
        if (checkpoint.finishedAt() != null) {
          last.add(
              new Charts.Bar(
                  "checkpoint " + checkpoint.id() + " " + checkpoint.status(),
                  millis(checkpoint.triggeredAt(), checkpoint.finishedAt()),
                  null));
        }
      }
      if (!last.isEmpty()) {
        page.append(
                "<figure><figcaption>Durations of the last checkpoints in the diagnostic dump"
                    + " (ms).</figcaption>")
            .append(
                Charts.bars(
                    "checkpoint-duration-diagnostics", "Last checkpoints", source, last, "ms"))
            .append("</figure>\n");
        drawn = true;
      }
    }
    if (!drawn) {
      page.append(
          "<p class=\"note\">No checkpoint duration to chart: the record holds fewer than two"
              + " committed checkpoints per table and no measured checkpoint durations.</p>\n");
    }
  }

  /**
   * The commit-lag chart: per fault, how long after it took effect the job ran again, the first
   * checkpoint completed and the first sink commit landed; plus any lag series an exercise
   * measured.
   */
  private void commitLagCharts() {
    page.append("<h3>Commit lag</h3>\n");
    List<Charts.Bar> bars = new ArrayList<>();
    for (FaultRecord fault : run.faults()) {
      RecoveryEvidence recovery = fault.recovery();
      if (recovery == null) {
        continue;
      }
      String name = fault.spec().fault();
      if (recovery.runningAt() != null) {
        bars.add(
            new Charts.Bar(
                name + ": job running", millis(recovery.faultAt(), recovery.runningAt()), null));
      }
      if (recovery.firstCheckpointAt() != null) {
        bars.add(
            new Charts.Bar(
                name + ": first checkpoint",
                millis(recovery.faultAt(), recovery.firstCheckpointAt()),
                null));
      }
      if (recovery.firstCommitAt() != null) {
        bars.add(
            new Charts.Bar(
                name + ": first sink commit",
                millis(recovery.faultAt(), recovery.firstCommitAt()),
                null));
      }
    }
    boolean drawn = false;
    if (!bars.isEmpty()) {
      page.append(
              "<figure><figcaption>Commit lag after each fault: from the fault taking effect"
                  + " (recovery evidence fault_at) to the job running again, to the first"
                  + " completed checkpoint and to the first sink commit after it (ms). The last is"
                  + " how long committed data stood still.</figcaption>")
          .append(Charts.bars("commit-lag", "Commit lag after each fault", source, bars, "ms"))
          .append("</figure>\n");
      drawn = true;
    }
    for (int e = 0; e < run.exercises().size(); e++) {
      List<Charts.Line> lines = series(e, "lag");
      if (!lines.isEmpty()) {
        page.append("<figure><figcaption>Commit lag the exercise <code>")
            .append(escape(run.exercises().get(e).name()))
            .append(
                "</code> measured: events written to the source and not yet committed to the"
                    + " sink, over seconds since it started.</figcaption>")
            .append(Charts.lines("commit-lag-measured", "Measured commit lag", source, lines))
            .append("</figure>\n");
        drawn = true;
      }
    }
    if (!drawn) {
      page.append(
          "<p class=\"note\">No commit lag to chart: no fault recovered with recovery evidence and"
              + " no exercise measured a lag series.</p>\n");
    }
  }

  /** The series of exercise {@code e} whose name contains {@code kind}, with their pointers. */
  private List<Charts.Line> series(int e, String kind) {
    ExerciseRecord exercise = run.exercises().get(e);
    Map<String, List<Charts.Point>> byName = new LinkedHashMap<>();
    for (int i = 0; i < exercise.series().size(); i++) {
      ExerciseRecord.SeriesPoint point = exercise.series().get(i);
      if (point.series().contains(kind)) {
        byName
            .computeIfAbsent(point.series(), name -> new ArrayList<>())
            .add(
                new Charts.Point(
                    point.atMs(), point.value(), pointer("exercises", e, "series", i, "value")));
      }
    }
    return byName.entrySet().stream()
        .map(entry -> new Charts.Line(entry.getKey(), entry.getValue()))
        .toList();
  }

  private void exercises() {
    for (int e = 0; e < run.exercises().size(); e++) {
      ExerciseRecord exercise = run.exercises().get(e);
      page.append("<h3>Exercise <code>")
          .append(escape(exercise.name()))
          .append("</code></h3><p class=\"note\">")
          .append(escape(exercise.startedAt()))
          .append(" to ")
          .append(escape(exercise.finishedAt()))
          .append(
              "</p><table class=\"figures\"><thead><tr><th>Figure</th><th>Value</th></tr></thead><tbody>");
      for (Map.Entry<String, Long> figure : exercise.figures().entrySet()) {
        page.append("<tr><td>")
            .append(escape(figure.getKey()))
            .append("</td><td>")
            .append(
                number(
                    source, pointer("exercises", e, "figures", figure.getKey()), figure.getValue()))
            .append("</td></tr>");
      }
      exercise
          .facts()
          .forEach(
              (fact, text) ->
                  page.append("<tr><td>")
                      .append(escape(fact))
                      .append("</td><td>")
                      .append(escape(text))
                      .append("</td></tr>"));
      page.append("</tbody></table>\n");
    }
  }

  private void reconciliation() {
    page.append("<h3>Reconciliation</h3>\n");
    if (run.checks().isEmpty()) {
      page.append("<p class=\"note\">No check was run.</p>\n");
      return;
    }
    page.append(
        "<table class=\"reconciliation\"><thead><tr><th>Check</th><th>Verdict</th><th>Summary</th>"
            + "<th>Counts</th><th>Digests and facts</th></tr></thead><tbody>\n");
    for (int c = 0; c < run.checks().size(); c++) {
      CheckResult check = run.checks().get(c);
      page.append("<tr class=\"")
          .append(Html.cssClass(check.verdict().name()))
          .append("\"><td>")
          .append(escape(check.check()))
          .append("</td><td>")
          .append(Html.badge(check.verdict().name()))
          .append("</td><td>")
          .append(escape(check.summary()))
          .append("</td><td>");
      int index = c;
      check
          .evidence()
          .counts()
          .forEach(
              (name, count) ->
                  page.append(escape(name))
                      .append(" ")
                      .append(
                          number(
                              source, pointer("checks", index, "evidence", "counts", name), count))
                      .append("<br>"));
      page.append("</td><td>");
      check
          .evidence()
          .digests()
          .forEach(
              (name, digest) ->
                  page.append(escape(name))
                      .append(": <span class=\"hash\">")
                      .append(escape(digest))
                      .append("</span><br>"));
      check
          .evidence()
          .facts()
          .forEach(
              (name, fact) ->
                  page.append(escape(name)).append(": ").append(escape(fact)).append("<br>"));
      page.append("</td></tr>\n");
      if (!check.evidence().samples().isEmpty()) {
        page.append("<tr class=\"samples\"><td colspan=\"5\"><b>Evidence samples</b>");
        if (check.evidence().samplesOmitted() > 0) {
          page.append(" (")
              .append(
                  number(
                      source,
                      pointer("checks", c, "evidence", "samples_omitted"),
                      check.evidence().samplesOmitted()))
              .append(" more omitted)");
        }
        page.append(
            "<table><thead><tr><th>Kind</th><th>Subject</th><th>Expected</th><th>Actual</th>"
                + "<th>Differing columns</th><th>Note</th></tr></thead><tbody>");
        for (EvidenceSample sample : check.evidence().samples()) {
          page.append("<tr><td>")
              .append(escape(sample.kind()))
              .append("</td><td>")
              .append(escape(sample.subject()))
              .append("</td><td>")
              .append(escape(sample.expected()))
              .append("</td><td>")
              .append(escape(sample.actual()))
              .append("</td><td>")
              .append(escape(String.join(", ", sample.differingColumns())))
              .append("</td><td>")
              .append(escape(sample.note()))
              .append("</td></tr>");
        }
        page.append("</tbody></table></td></tr>\n");
      }
    }
    page.append("</tbody></table>\n");
  }

  private void linkage() {
    Map<String, @Nullable LinkageRecord> moments = new LinkedHashMap<>();
    moments.put("baseline", run.linkage().baseline());
    moments.put("repair", run.linkage().repair());
    moments.put("final", run.linkage().finalLinkage());
    if (moments.values().stream().allMatch(Objects::isNull)) {
      return;
    }
    page.append(
        "<h3>Offsets ↔ checkpoint ↔ snapshot linkage</h3><table class=\"linkage\"><thead><tr>"
            + "<th>Moment</th><th>Taken at</th><th>Topic / group</th><th>Partition: committed /"
            + " log end (lag)</th><th>Checkpoint</th><th>Table snapshots (committing"
            + " checkpoint)</th></tr></thead><tbody>\n");
    moments.forEach(
        (moment, record) -> {
          if (record == null) {
            return;
          }
          page.append("<tr><td>")
              .append(escape(moment))
              .append("</td><td>")
              .append(escape(record.takenAt()))
              .append("</td><td>")
              .append(escape(record.topic()))
              .append("<br>")
              .append(escape(record.consumerGroup()))
              .append("</td><td>");
          for (int p = 0; p < record.offsets().size(); p++) {
            LinkageRecord.PartitionOffset offset = record.offsets().get(p);
            page.append(
                    number(
                        source,
                        pointer("linkage", moment, "offsets", p, "partition"),
                        offset.partition()))
                .append(": ")
                .append(
                    number(
                        source,
                        pointer("linkage", moment, "offsets", p, "committed_offset"),
                        offset.committedOffset()))
                .append(" / ")
                .append(
                    number(
                        source,
                        pointer("linkage", moment, "offsets", p, "log_end_offset"),
                        offset.logEndOffset()))
                .append(" (")
                .append(Html.derived(offset.lag()))
                .append(")<br>");
          }
          page.append("</td><td>");
          if (record.checkpoint() != null) {
            page.append(
                    number(
                        source,
                        pointer("linkage", moment, "checkpoint", "id"),
                        record.checkpoint().id()))
                .append(" ")
                .append(escape(record.checkpoint().status()));
          }
          page.append("</td><td>");
          record
              .snapshots()
              .forEach(
                  (table, snapshot) -> {
                    page.append(escape(table))
                        .append(": ")
                        .append(
                            number(
                                source,
                                pointer("linkage", moment, "snapshots", table, "snapshot_id"),
                                snapshot.snapshotId()));
                    if (snapshot.committedCheckpointId() != null) {
                      page.append(" (")
                          .append(
                              number(
                                  source,
                                  pointer(
                                      "linkage",
                                      moment,
                                      "snapshots",
                                      table,
                                      "committed_checkpoint_id"),
                                  snapshot.committedCheckpointId()))
                          .append(")");
                    }
                    page.append("<br>");
                  });
          page.append("</td></tr>\n");
        });
    page.append("</tbody></table>\n");
  }

  private void deadLetters() {
    Quarantine quarantine = run.quarantine();
    if (run.dlq().isEmpty() && quarantine == null) {
      return;
    }
    page.append(
        "<h3>Dead-letter records</h3><p class=\"note\">Payloads are shown as SHA-256 and length"
            + " only; error messages are left out because they may quote the payload.</p>"
            + "<table class=\"dlq\"><thead><tr><th>DLQ position</th><th>Original position</th>"
            + "<th>Error type</th><th>Quarantined at</th><th>Payload SHA-256</th>"
            + "<th>Length (bytes)</th><th>Original bytes preserved</th></tr></thead><tbody>\n");
    for (int d = 0; d < run.dlq().size(); d++) {
      DlqRecord record = run.dlq().get(d);
      page.append("<tr><td>")
          .append(escape(record.topic()))
          .append("-")
          .append(number(source, pointer("dlq", d, "partition"), record.partition()))
          .append("@")
          .append(number(source, pointer("dlq", d, "offset"), record.offset()))
          .append("</td><td>")
          .append(escape(record.originalTopic()))
          .append("-")
          .append(
              number(source, pointer("dlq", d, "original_partition"), record.originalPartition()))
          .append("@")
          .append(number(source, pointer("dlq", d, "original_offset"), record.originalOffset()))
          .append("</td><td>")
          .append(escape(record.errorType()))
          .append("</td><td>")
          .append(escape(record.quarantinedAt()))
          .append("</td><td class=\"hash\">")
          .append(escape(record.originalValueSha256()))
          .append("</td><td>")
          .append(
              number(
                  source, pointer("dlq", d, "original_value_length"), record.originalValueLength()))
          .append("</td><td>")
          .append(record.originalBytesPreserved() ? "yes" : "<span class=\"failed-text\">no</span>")
          .append("</td></tr>\n");
    }
    page.append("</tbody></table>\n");
    if (quarantine != null) {
      page.append("<p><b>Quarantine:</b> ")
          .append(escape(quarantine.state()))
          .append(
              quarantine.recoveryMode() == null
                  ? ""
                  : "; repair: " + escape(quarantine.recoveryMode()))
          .append("; repaired record replayed: ")
          .append(quarantine.repairReplayed() ? "yes" : "no")
          .append("; affected keys: ")
          .append(Html.derived(quarantine.affectedKeys().size()))
          .append(".</p>\n");
      Quarantine.Reconciliation before = quarantine.reconciliationBeforeResume();
      if (before != null) {
        page.append("<p>Reconciled before the source resumed: source rows ")
            .append(
                number(
                    source,
                    "/quarantine/reconciliation_before_resume/source_row_count",
                    before.sourceRowCount()))
            .append(", sink rows ")
            .append(
                number(
                    source,
                    "/quarantine/reconciliation_before_resume/sink_row_count",
                    before.sinkRowCount()))
            .append(", snapshot diff count ")
            .append(
                number(
                    source,
                    "/quarantine/reconciliation_before_resume/snapshot_diff_count",
                    before.snapshotDiffCount()))
            .append(".</p>\n");
      }
    }
  }

  private void snapshots() {
    if (run.snapshots().isEmpty()) {
      return;
    }
    page.append("<details><summary>Sink snapshots (")
        .append(Html.derived(run.snapshots().size()))
        .append(
            ")</summary><table class=\"snapshots\"><thead><tr><th>Table</th><th>Snapshot</th>"
                + "<th>Committed at</th><th>Operation</th><th>Committing checkpoint</th></tr></thead><tbody>");
    for (int s = 0; s < run.snapshots().size(); s++) {
      SnapshotInfo snapshot = run.snapshots().get(s);
      page.append("<tr><td>")
          .append(escape(snapshot.table()))
          .append("</td><td>")
          .append(number(source, pointer("snapshots", s, "snapshot_id"), snapshot.snapshotId()))
          .append("</td><td>")
          .append(escape(snapshot.committedAt()))
          .append("</td><td>")
          .append(escape(snapshot.operation()))
          .append("</td><td>")
          .append(
              snapshot.committedCheckpointId() == null
                  ? "—"
                  : number(
                      source,
                      pointer("snapshots", s, "committed_checkpoint_id"),
                      snapshot.committedCheckpointId()))
          .append("</td></tr>");
    }
    page.append("</tbody></table></details>\n");
  }

  private void diagnostics() {
    Diagnostics dump = run.diagnostics();
    if (dump == null) {
      return;
    }
    page.append("<h3>Diagnostic dump</h3><p class=\"failed-text\">")
        .append(escape(dump.reason()))
        .append("</p><p>Captured at ")
        .append(escape(dump.capturedAt()))
        .append(", job state ")
        .append(escape(dump.jobState()))
        .append(".</p>");
    if (!dump.exceptionHistory().isEmpty()) {
      page.append("<ul>");
      // Class, task and time only: a failure's message may quote the record that caused it (a
      // poison payload), which the page never shows.
      for (JobFailure failure : dump.exceptionHistory()) {
        page.append("<li>")
            .append(escape(failure.at()))
            .append(" ")
            .append(escape(failure.exceptionClass()))
            .append(failure.task() == null ? "" : " in " + escape(failure.task()))
            .append("</li>");
      }
      page.append("</ul>");
    }
    page.append("\n");
  }

  private void environment() {
    EnvironmentInfo environment = run.environment();
    page.append(
            "<details><summary>Environment, stack versions and effective configuration</summary>")
        .append("<table class=\"environment\"><tbody>")
        .append(row("Execution", environment.execution()))
        .append(
            row(
                "OS",
                environment.os()
                    + " "
                    + environment.osVersion()
                    + (environment.distribution() == null
                        ? ""
                        : " (" + environment.distribution() + ")")))
        .append(row("Architecture", environment.architecture()))
        .append("<tr><th>CPUs</th><td>")
        .append(number(source, "/environment/cpu_count", environment.cpuCount()))
        .append(" × ")
        .append(escape(environment.cpuModel()))
        .append("</td></tr><tr><th>Memory (bytes)</th><td>")
        .append(
            environment.memoryBytes() == null
                ? "unknown"
                : number(source, "/environment/memory_bytes", environment.memoryBytes()))
        .append("</td></tr>")
        .append(
            row(
                "Java",
                environment.javaVersion()
                    + " "
                    + environment.javaVendor()
                    + " ("
                    + environment.javaVm()
                    + ")"))
        .append("<tr><th>Max heap (bytes)</th><td>")
        .append(number(source, "/environment/max_heap_bytes", environment.maxHeapBytes()))
        .append("</td></tr>")
        .append(row("Host", environment.hostname()))
        .append(
            row(
                "Docker",
                environment.dockerAvailable()
                    ? "available " + Objects.toString(environment.dockerVersion(), "")
                    : "not available"))
        .append("</tbody></table><h4>Stack versions</h4><table class=\"stack\"><tbody>");
    run.stackVersions().forEach((component, version) -> page.append(row(component, version)));
    page.append(
        "</tbody></table><h4>Effective configuration</h4><table class=\"configuration\"><tbody>");
    run.effectiveConfiguration().forEach((key, value) -> page.append(row(key, value)));
    page.append("</tbody></table>");
    if (run.logs() != null) {
      page.append("<p>Log file: <code>").append(escape(run.logs())).append("</code></p>");
    }
    page.append("</details>\n");
  }

  private static String row(String name, @Nullable Object value) {
    return "<tr><th>" + escape(name) + "</th><td>" + escape(value) + "</td></tr>";
  }

  /** Milliseconds from {@code from} to {@code to}, never negative; 0 when {@code to} is unknown. */
  static long millis(Instant from, @Nullable Instant to) {
    return to == null ? 0 : Math.max(0, Duration.between(from, to).toMillis());
  }
}
