package io.reliabilitylab.runner;

import static org.assertj.core.api.Assertions.assertThat;

import io.reliabilitylab.checks.SnapshotDiffCheck;
import io.reliabilitylab.record.ExitCode;
import io.reliabilitylab.record.RunRecord;
import io.reliabilitylab.record.RunRecordReader;
import io.reliabilitylab.source.mysql.EmbeddedMariaDb;
import io.reliabilitylab.spi.check.CheckResult;
import io.reliabilitylab.spi.check.Verdict;
import io.reliabilitylab.spi.data.Changelog;
import io.reliabilitylab.spi.data.DeliverySemantics;
import io.reliabilitylab.spi.data.RowSet;
import io.reliabilitylab.spi.pipeline.CheckpointInfo;
import io.reliabilitylab.spi.pipeline.JobControl;
import io.reliabilitylab.spi.pipeline.JobFailure;
import io.reliabilitylab.spi.pipeline.JobState;
import io.reliabilitylab.spi.pipeline.PipelineCapability;
import io.reliabilitylab.spi.pipeline.PipelineConfig;
import io.reliabilitylab.spi.pipeline.PipelineProvider;
import io.reliabilitylab.spi.pipeline.PipelineUnderTest;
import io.reliabilitylab.spi.pipeline.SnapshotInfo;
import io.reliabilitylab.spi.pipeline.TableAccess;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeoutException;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The lifecycle's failure paths against the real embedded source: a sink that never catches up, a
 * pipeline that never starts streaming, and a source lacking a CDC prerequisite. The happy path
 * runs against the real direct pipeline in its own module ({@code RunCommandIT}); these stand-in
 * pipelines exist only to make the lab's own waits time out.
 */
class ScenarioRunnerIT {

  @TempDir Path out;

  private final EmbeddedMariaDb source = EmbeddedMariaDb.shared();

  @Test
  void aSinkThatNeverCatchesUpFailsTheRunWithADiagnosticDump() throws Exception {
    RunRecord record = runner(new StalledPipelineProvider(false)).run(plan());

    assertThat(record.summary().exitCode()).isEqualTo(ExitCode.FAILED);
    assertThat(record.checks())
        .extracting(CheckResult::check, CheckResult::verdict)
        .containsExactly(org.assertj.core.groups.Tuple.tuple("catch-up", Verdict.FAILED));
    assertThat(record.checks().get(0).summary()).contains("did not catch up within 2 s");
    assertThat(record.diagnostics()).isNotNull();
    assertThat(record.diagnostics().jobState()).isEqualTo(JobState.RUNNING);
    assertThat(record.diagnostics().sourcePosition()).isNotNull();
    assertThat(RunRecordReader.readDirectory(out)).singleElement().isEqualTo(record);
  }

  @Test
  void aPipelineThatNeverStreamsFailsTheRun() throws Exception {
    RunRecord record = runner(new StalledPipelineProvider(true)).run(plan());

    assertThat(record.summary().exitCode()).isEqualTo(ExitCode.FAILED);
    assertThat(record.checks()).extracting(CheckResult::check).containsExactly("start");
    assertThat(record.diagnostics()).isNotNull();
  }

  @Test
  void aSourceWithoutRowBinlogsIsAnEnvironmentErrorNamingTheSetting() throws Exception {
    try (Connection connection = source.connect();
        Statement statement = connection.createStatement()) {
      statement.execute("SET GLOBAL binlog_format = 'STATEMENT'");
      RunRecord record = runner(new StalledPipelineProvider(false)).run(plan());
      assertThat(record.summary().exitCode()).isEqualTo(ExitCode.USAGE_OR_ENVIRONMENT);
      assertThat(record.summary().error()).contains("binlog_format").contains("ROW");
    } finally {
      try (Connection connection = source.connect();
          Statement statement = connection.createStatement()) {
        statement.execute("SET GLOBAL binlog_format = 'ROW'");
      }
    }
  }

  private ScenarioRunner runner(PipelineProvider provider) {
    return new ScenarioRunner(
        source,
        out,
        List.of(provider),
        List.of(new SnapshotDiffCheck()),
        List.of(),
        List.of("reliability-lab", "run"),
        Clock.systemUTC());
  }

  private static ScenarioPlan plan() {
    return new ScenarioPlan(
        "stalled",
        "baseline",
        1,
        20,
        Map.of(),
        Duration.ofSeconds(2),
        Duration.ofSeconds(2),
        List.of());
  }

  /** A pipeline whose job runs and checkpoints but whose sink never commits a snapshot. */
  private record StalledPipelineProvider(boolean neverStreams) implements PipelineProvider {
    @Override
    public String name() {
      return "stalled";
    }

    @Override
    public String description() {
      return "a stand-in whose sink never commits";
    }

    @Override
    public PipelineUnderTest start(PipelineConfig config) throws Exception {
      if (neverStreams) {
        throw new TimeoutException("the stand-in job did not start streaming within 2 s");
      }
      return new StalledPipeline();
    }
  }

  private static final class StalledPipeline implements PipelineUnderTest, JobControl, TableAccess {
    @Override
    public String name() {
      return "stalled";
    }

    @Override
    public DeliverySemantics semantics() {
      return DeliverySemantics.EXACTLY_ONCE;
    }

    @Override
    public Set<Class<? extends PipelineCapability>> capabilities() {
      return Set.of(JobControl.class, TableAccess.class);
    }

    @Override
    public <T extends PipelineCapability> Optional<T> capability(Class<T> type) {
      return Optional.of(type.cast(this));
    }

    @Override
    public Map<String, String> effectiveConfiguration() {
      return Map.of("checkpoint.interval", "1s");
    }

    @Override
    public Map<String, String> stackVersions() {
      return Map.of();
    }

    @Override
    public void close() {}

    @Override
    public String jobId() {
      return "0000";
    }

    @Override
    public JobState state() {
      return JobState.RUNNING;
    }

    @Override
    public long restartCount() {
      return 0;
    }

    @Override
    public List<JobFailure> exceptionHistory() {
      return List.of();
    }

    @Override
    public List<CheckpointInfo> checkpoints() {
      return List.of();
    }

    @Override
    public void awaitRunning(Duration timeout) {}

    @Override
    public CheckpointInfo awaitCompletedCheckpointAfter(Instant after, Duration timeout) {
      return new CheckpointInfo(1, "COMPLETED", after, after, null, null, null, false);
    }

    @Override
    public RowSet source() {
      throw new UnsupportedOperationException();
    }

    @Override
    public List<SnapshotInfo> snapshots(String table) {
      return List.of();
    }

    @Override
    public RowSet current(long snapshotId) {
      throw new UnsupportedOperationException();
    }

    @Override
    public Changelog changelog(long snapshotId) {
      throw new UnsupportedOperationException();
    }

    @Override
    public Changelog changelogAppended(
        @Nullable Long fromSnapshotExclusive, long toSnapshotInclusive) {
      throw new UnsupportedOperationException();
    }

    @Override
    public String currentTable() {
      return "orders_current";
    }

    @Override
    public String changelogTable() {
      return "orders_changelog";
    }
  }
}
