package io.reliabilitylab.record;

import static org.apiguardian.api.API.Status.STABLE;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.reliabilitylab.spi.check.CheckResult;
import io.reliabilitylab.spi.check.DlqRecord;
import io.reliabilitylab.spi.check.LinkageRecord;
import io.reliabilitylab.spi.data.SourcePosition;
import io.reliabilitylab.spi.fault.FaultEvidence;
import io.reliabilitylab.spi.pipeline.SnapshotInfo;
import io.reliabilitylab.spi.secret.Redactor;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * Everything one run did and showed, as written to {@code <run_id>.json}: identity and times, the
 * command (secrets masked), the environment and stack, the scenario and the configuration that
 * decides the verdict, each fault with its evidence and timings, each non-fault exercise with its
 * figures (checkpoint pressure, compaction), the linkage records, each check's verdict and
 * evidence, the sink snapshots, dead-letter records (payloads as SHA-256 and length only), the
 * repair, a diagnostic dump if a wait timed out, phase timings, the summary and the claim boundary.
 *
 * <p>A record is immutable and holds no secret: its constructor masks the command, the effective
 * configuration, diagnostic dumps, exercise facts and the free text of evidence, whatever the
 * caller passed. Build one incrementally while a run proceeds:
 *
 * <pre>{@code
 * RunRecord.Builder record = RunRecord.builder(RunId.next(start), start)
 *     .command(args)
 *     .environment(EnvironmentInfo.capture("embedded", false))
 *     .scenario(ScenarioInfo.of("direct", "task-failure", 42, 1_000, 500))
 *     .configuration("delivery.semantics", "EXACTLY_ONCE")
 *     .claimBoundary("Shows that ...; does not show ...");
 * record.fault(FaultRecord.of(spec, evidence, recovery)).check(result).timing("baseline", took);
 * ExerciseRecord.Builder compaction = ExerciseRecord.builder("compaction", clock.instant());
 * record.exercise(compaction.figure("data_files_after", 3).build(clock.instant()));
 * RunRecord done = record.finishedAt(clock.instant()).build(); // summary computed from the checks
 * }</pre>
 *
 * @param schemaVersion the version of this format, {@value #SCHEMA_VERSION}
 * @param runId e.g. {@code 20260820T131949Z-2aea4b71}, see {@link RunId}
 * @param startedAt when the run started
 * @param finishedAt when it finished
 * @param gitSha the lab's source revision, when known
 * @param command the exact command line, secrets masked
 * @param environment the machine, OS and JVM
 * @param stackVersions component to version, e.g. {@code flink -> 1.20.3}
 * @param scenario pipeline, scenario, seed and event counts
 * @param effectiveConfiguration the settings that decide the verdict (restart strategy, checkpoint
 *     interval / timeout / tolerance, delivery semantics, sink version, flush intervals), secrets
 *     masked
 * @param faults each injected fault with evidence and timings
 * @param exercises each non-fault exercise (checkpoint pressure, compaction) with its figures,
 *     facts and series, in the order they ran
 * @param linkage offsets ↔ checkpoint ↔ snapshots at baseline, repair and end
 * @param checks each check's verdict, summary and evidence
 * @param snapshots the sink snapshots committed during the run, per table
 * @param sourcePosition the source position the sink reached
 * @param dlq records found in the dead-letter topic
 * @param quarantine the repair of quarantined records, if any
 * @param diagnostics the dump taken when a wait timed out, if one did
 * @param timings phase to duration, written in milliseconds as {@code timings_ms}
 * @param summary verdict, exit code and counts
 * @param claimBoundary one sentence: what this run shows and what it does not
 * @param logs the run's log file, if kept
 */
@API(status = STABLE)
public record RunRecord(
    int schemaVersion,
    String runId,
    Instant startedAt,
    Instant finishedAt,
    @Nullable String gitSha,
    String command,
    EnvironmentInfo environment,
    Map<String, String> stackVersions,
    ScenarioInfo scenario,
    Map<String, String> effectiveConfiguration,
    List<FaultRecord> faults,
    List<ExerciseRecord> exercises,
    Linkage linkage,
    List<CheckResult> checks,
    List<SnapshotInfo> snapshots,
    @Nullable SourcePosition sourcePosition,
    List<DlqRecord> dlq,
    @Nullable Quarantine quarantine,
    @Nullable Diagnostics diagnostics,
    @JsonProperty("timings_ms") Map<String, Duration> timings,
    Summary summary,
    String claimBoundary,
    @Nullable String logs) {

  /** The version of the record format this code writes and reads. */
  public static final int SCHEMA_VERSION = 1;

  public RunRecord {
    if (schemaVersion != SCHEMA_VERSION) {
      throw new IllegalArgumentException(
          "This lab handles run records of schema version "
              + SCHEMA_VERSION
              + ", not "
              + schemaVersion
              + "; read it with the lab release that wrote it");
    }
    RunId.requireValid(runId);
    Objects.requireNonNull(startedAt, "startedAt");
    Objects.requireNonNull(finishedAt, "finishedAt");
    if (finishedAt.isBefore(startedAt)) {
      throw new IllegalArgumentException(
          "A run cannot finish (" + finishedAt + ") before it started (" + startedAt + ")");
    }
    command = Redactor.redact(Objects.requireNonNull(command, "command"));
    Objects.requireNonNull(environment, "environment");
    stackVersions = Collections.unmodifiableMap(new LinkedHashMap<>(stackVersions));
    Objects.requireNonNull(scenario, "scenario");
    effectiveConfiguration = Redactor.redactProperties(effectiveConfiguration);
    faults = List.copyOf(faults);
    exercises = List.copyOf(exercises);
    Objects.requireNonNull(linkage, "linkage");
    checks = RecordRedaction.each(List.copyOf(checks), RecordRedaction::check);
    snapshots = List.copyOf(snapshots);
    dlq = List.copyOf(dlq);
    Map<String, Duration> phaseTimes = new LinkedHashMap<>();
    timings.forEach(
        (phase, took) -> phaseTimes.put(phase, Durations.requireMillis(took, "phase " + phase)));
    timings = Collections.unmodifiableMap(phaseTimes);
    Objects.requireNonNull(summary, "summary");
    Objects.requireNonNull(claimBoundary, "claimBoundary");
    if (claimBoundary.isBlank()) {
      throw new IllegalArgumentException(
          "A run record needs a claim boundary: one sentence on what the run shows and what not");
    }
  }

  /** The evidence of every fault, in injection order. */
  public List<FaultEvidence> faultEvidence() {
    return faults.stream().map(FaultRecord::evidence).toList();
  }

  /** A builder for the run {@code runId} that started at {@code startedAt}. */
  public static Builder builder(String runId, Instant startedAt) {
    return new Builder(runId, startedAt);
  }

  /**
   * Fills a run record while the run proceeds; {@link #build()} computes the summary from the
   * checks and faults unless one was set. Not thread-safe: one run, one builder.
   */
  public static final class Builder {
    private final String runId;
    private final Instant startedAt;
    private @Nullable Instant finishedAt;
    private @Nullable String gitSha;
    private String command = "";
    private @Nullable EnvironmentInfo environment;
    private final Map<String, String> stackVersions = new LinkedHashMap<>();
    private @Nullable ScenarioInfo scenario;
    private final Map<String, String> configuration = new LinkedHashMap<>();
    private final List<FaultRecord> faults = new ArrayList<>();
    private final List<ExerciseRecord> exercises = new ArrayList<>();
    private @Nullable LinkageRecord baselineLinkage;
    private @Nullable LinkageRecord repairLinkage;
    private @Nullable LinkageRecord finalLinkage;
    private final List<CheckResult> checks = new ArrayList<>();
    private final List<SnapshotInfo> snapshots = new ArrayList<>();
    private @Nullable SourcePosition sourcePosition;
    private final List<DlqRecord> dlq = new ArrayList<>();
    private @Nullable Quarantine quarantine;
    private @Nullable Diagnostics diagnostics;
    private final Map<String, Duration> timings = new LinkedHashMap<>();
    private long snapshotDiffCount;
    private @Nullable String error;
    private @Nullable Summary summary;
    private @Nullable String claimBoundary;
    private @Nullable String logs;

    private Builder(String runId, Instant startedAt) {
      this.runId = RunId.requireValid(runId);
      this.startedAt = Objects.requireNonNull(startedAt, "startedAt");
    }

    public Builder finishedAt(Instant at) {
      this.finishedAt = Objects.requireNonNull(at, "finishedAt");
      return this;
    }

    public Builder gitSha(@Nullable String sha) {
      this.gitSha = sha;
      return this;
    }

    /** The command line as typed; secrets are masked when the record is built. */
    public Builder command(String line) {
      this.command = Objects.requireNonNull(line, "command");
      return this;
    }

    /** The command as program name and arguments; secrets masked, quoted for a POSIX shell. */
    public Builder command(List<String> arguments) {
      this.command = Redactor.commandLine(arguments);
      return this;
    }

    public Builder environment(EnvironmentInfo info) {
      this.environment = Objects.requireNonNull(info, "environment");
      return this;
    }

    public Builder stackVersion(String component, String version) {
      stackVersions.put(
          Objects.requireNonNull(component, "component"),
          Objects.requireNonNull(version, "version"));
      return this;
    }

    public Builder stackVersions(Map<String, String> versions) {
      versions.forEach(this::stackVersion);
      return this;
    }

    public Builder scenario(ScenarioInfo info) {
      this.scenario = Objects.requireNonNull(info, "scenario");
      return this;
    }

    /** One setting of the effective configuration; a secret's value is masked. */
    public Builder configuration(String key, String value) {
      configuration.put(Objects.requireNonNull(key, "key"), Objects.requireNonNull(value, "value"));
      return this;
    }

    public Builder configuration(Map<String, String> settings) {
      settings.forEach(this::configuration);
      return this;
    }

    public Builder fault(FaultRecord fault) {
      faults.add(Objects.requireNonNull(fault, "fault"));
      return this;
    }

    /** A non-fault exercise of the scenario; it does not change the verdict. */
    public Builder exercise(ExerciseRecord exercise) {
      exercises.add(Objects.requireNonNull(exercise, "exercise"));
      return this;
    }

    public Builder baselineLinkage(@Nullable LinkageRecord record) {
      this.baselineLinkage = record;
      return this;
    }

    public Builder repairLinkage(@Nullable LinkageRecord record) {
      this.repairLinkage = record;
      return this;
    }

    public Builder finalLinkage(@Nullable LinkageRecord record) {
      this.finalLinkage = record;
      return this;
    }

    public Builder check(CheckResult result) {
      checks.add(Objects.requireNonNull(result, "check"));
      return this;
    }

    public Builder checks(List<CheckResult> results) {
      results.forEach(this::check);
      return this;
    }

    public Builder snapshot(SnapshotInfo snapshot) {
      snapshots.add(Objects.requireNonNull(snapshot, "snapshot"));
      return this;
    }

    public Builder snapshots(List<SnapshotInfo> committed) {
      committed.forEach(this::snapshot);
      return this;
    }

    public Builder sourcePosition(@Nullable SourcePosition reached) {
      this.sourcePosition = reached;
      return this;
    }

    public Builder dlqRecord(DlqRecord record) {
      dlq.add(Objects.requireNonNull(record, "dlq record"));
      return this;
    }

    public Builder quarantine(@Nullable Quarantine section) {
      this.quarantine = section;
      return this;
    }

    public Builder diagnostics(@Nullable Diagnostics dump) {
      this.diagnostics = dump;
      return this;
    }

    /** How long a phase took; a phase timed twice keeps the sum. */
    public Builder timing(String phase, Duration took) {
      timings.merge(
          Objects.requireNonNull(phase, "phase"),
          Objects.requireNonNull(took, "took"),
          Duration::plus);
      return this;
    }

    /** Missing, unexpected and mismatched rows in the final snapshot diff, for the summary. */
    public Builder snapshotDiffCount(long count) {
      this.snapshotDiffCount = count;
      return this;
    }

    /** Marks the run as stopped by a usage or environment error (exit code 2 unless failed). */
    public Builder error(@Nullable String message) {
      this.error = message;
      return this;
    }

    /** Sets the summary instead of computing it from the checks and faults. */
    public Builder summary(@Nullable Summary given) {
      this.summary = given;
      return this;
    }

    public Builder claimBoundary(String sentence) {
      this.claimBoundary = Objects.requireNonNull(sentence, "claimBoundary");
      return this;
    }

    public Builder logs(@Nullable Path file) {
      this.logs = file == null ? null : file.toString();
      return this;
    }

    /** The summary as it stands now, computed from what was added so far. */
    public Summary currentSummary() {
      if (summary != null) {
        return summary;
      }
      List<FaultEvidence> evidence = faults.stream().map(FaultRecord::evidence).toList();
      return error == null
          ? Verdicts.summarize(checks, evidence, snapshotDiffCount, dlq.size())
          : Verdicts.aborted(error, checks, evidence, snapshotDiffCount, dlq.size());
    }

    /**
     * The immutable record.
     *
     * @throws IllegalStateException when the environment, scenario, claim boundary or finish time
     *     is missing
     */
    public RunRecord build() {
      List<String> missing = new ArrayList<>();
      if (environment == null) {
        missing.add("environment");
      }
      if (scenario == null) {
        missing.add("scenario");
      }
      if (claimBoundary == null) {
        missing.add("claimBoundary");
      }
      if (finishedAt == null) {
        missing.add("finishedAt");
      }
      if (!missing.isEmpty()) {
        throw new IllegalStateException(
            "Run record " + runId + " cannot be built without " + String.join(", ", missing));
      }
      return new RunRecord(
          SCHEMA_VERSION,
          runId,
          startedAt,
          Objects.requireNonNull(finishedAt),
          gitSha,
          command,
          Objects.requireNonNull(environment),
          stackVersions,
          Objects.requireNonNull(scenario),
          configuration,
          faults,
          exercises,
          new Linkage(baselineLinkage, repairLinkage, finalLinkage),
          checks,
          snapshots,
          sourcePosition,
          dlq,
          quarantine,
          diagnostics,
          timings,
          currentSummary(),
          Objects.requireNonNull(claimBoundary),
          logs);
    }
  }
}
