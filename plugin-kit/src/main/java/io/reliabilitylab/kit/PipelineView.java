package io.reliabilitylab.kit;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.reliabilitylab.spi.fault.FaultContext;
import io.reliabilitylab.spi.pipeline.FaultPoints;
import io.reliabilitylab.spi.pipeline.JobControl;
import io.reliabilitylab.spi.pipeline.SnapshotInfo;
import io.reliabilitylab.spi.pipeline.TableAccess;
import io.reliabilitylab.spi.pipeline.TaskManagerControl;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * The capabilities a fault watches, taken once from the pipeline: job control (always required)
 * and, when offered, fault points, TaskManager control and table access. {@link #observe()} takes
 * the {@link Observation} a {@link ProofRule} judges; a read that fails leaves that part out and
 * keeps the problem for the evidence ({@link #lastReadProblem()}).
 *
 * <pre>{@code
 * PipelineView view = PipelineView.of(context);
 * Observation baseline = view.observe(); // before the fault changes anything
 * }</pre>
 */
@API(status = EXPERIMENTAL)
public final class PipelineView {

  private final JobControl job;
  private final @Nullable FaultPoints faultPoints;
  private final @Nullable TaskManagerControl taskManagers;
  private final @Nullable TableAccess tables;
  private final Clock clock;
  private final String faultId;
  private volatile @Nullable String lastReadProblem;

  /**
   * The view of {@code context}'s pipeline, watching {@code context}'s fault id and clock.
   *
   * @throws IllegalStateException when the pipeline does not offer {@link JobControl}: check the
   *     fault's required capabilities first ({@link CapabilityCheck#skipIfMissing})
   */
  public static PipelineView of(FaultContext context) {
    return new PipelineView(Objects.requireNonNull(context, "context"));
  }

  private PipelineView(FaultContext context) {
    this.job =
        context
            .pipeline()
            .capability(JobControl.class)
            .orElseThrow(
                () ->
                    new IllegalStateException(
                        "pipeline '"
                            + context.pipeline().name()
                            + "' lists JobControl among its capabilities but does not return it"));
    this.faultPoints = context.pipeline().capability(FaultPoints.class).orElse(null);
    this.taskManagers = context.pipeline().capability(TaskManagerControl.class).orElse(null);
    this.tables = context.pipeline().capability(TableAccess.class).orElse(null);
    this.clock = context.clock();
    this.faultId = context.spec().id();
  }

  /** The job's control, always offered. */
  public JobControl job() {
    return job;
  }

  /** The fault points compiled into the job, when the pipeline offers them. */
  public Optional<FaultPoints> faultPoints() {
    return Optional.ofNullable(faultPoints);
  }

  /** The control of the job's TaskManagers, when the pipeline offers it. */
  public Optional<TaskManagerControl> taskManagers() {
    return Optional.ofNullable(taskManagers);
  }

  /** The sink's tables, when the pipeline offers them. */
  public Optional<TableAccess> tables() {
    return Optional.ofNullable(tables);
  }

  /** The fault's clock, which times every observation and the evidence. */
  public Clock clock() {
    return clock;
  }

  /** Why the last read of snapshots or TaskManagers failed, if it did. */
  public @Nullable String lastReadProblem() {
    return lastReadProblem;
  }

  /** Everything the proofs judge, now. */
  public Observation observe() {
    Instant at = clock.instant();
    // restart count before history: a failure seen in the history is then never newer than the
    // count it is judged with
    long restarts = job.restartCount();
    return new Observation(
        at,
        job.jobId(),
        job.state(),
        restarts,
        job.exceptionHistory(),
        job.checkpoints(),
        taskManagerIds(),
        currentSnapshots(),
        faultPoints == null ? null : faultPoints.firedAt(faultId).orElse(null));
  }

  private @Nullable List<String> taskManagerIds() {
    if (taskManagers == null) {
      return null;
    }
    try {
      return taskManagers.taskManagers();
    } catch (RuntimeException e) {
      lastReadProblem = "reading the TaskManagers failed: " + e;
      return null;
    }
  }

  /**
   * The current table's snapshots, or null when the pipeline does not show them or reading them
   * failed (then {@link #lastReadProblem()} says why).
   */
  public @Nullable List<SnapshotInfo> currentSnapshots() {
    if (tables == null) {
      return null;
    }
    try {
      return tables.snapshots(tables.currentTable());
    } catch (Exception e) {
      if (e instanceof InterruptedException) {
        Thread.currentThread().interrupt();
      }
      lastReadProblem = "reading the snapshots of the current table failed: " + e;
      return null;
    }
  }
}
