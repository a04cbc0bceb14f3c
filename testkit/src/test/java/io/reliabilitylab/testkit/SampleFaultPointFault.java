package io.reliabilitylab.testkit;

import com.google.auto.service.AutoService;
import io.reliabilitylab.spi.fault.FaultContext;
import io.reliabilitylab.spi.fault.FaultEvidence;
import io.reliabilitylab.spi.fault.FaultHandle;
import io.reliabilitylab.spi.fault.FaultInjector;
import io.reliabilitylab.spi.fault.FaultStatus;
import io.reliabilitylab.spi.fault.RecoveryEvidence;
import io.reliabilitylab.spi.pipeline.CheckpointInfo;
import io.reliabilitylab.spi.pipeline.FaultPoints;
import io.reliabilitylab.spi.pipeline.JobControl;
import io.reliabilitylab.spi.pipeline.JobFailure;
import io.reliabilitylab.spi.pipeline.PipelineCapability;
import io.reliabilitylab.spi.pipeline.SnapshotInfo;
import io.reliabilitylab.spi.pipeline.TableAccess;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeoutException;
import org.jspecify.annotations.Nullable;

/**
 * A fault for the kit's own tests: arms the {@code operator} fault point and proves it fired by its
 * id in the job's exception history.
 */
@AutoService(FaultInjector.class)
public final class SampleFaultPointFault implements FaultInjector {

  @Override
  public String name() {
    return "sample-fault-point";
  }

  @Override
  public String description() {
    return "Makes the operator fault point throw once (testkit sample)";
  }

  @Override
  public Set<Class<? extends PipelineCapability>> requiredCapabilities() {
    return Set.of(FaultPoints.class, JobControl.class, TableAccess.class);
  }

  @Override
  public FaultHandle inject(FaultContext context) {
    Set<String> missing = new TreeSet<>();
    for (Class<? extends PipelineCapability> type : requiredCapabilities()) {
      if (context.pipeline().capability(type).isEmpty()) {
        missing.add(type.getSimpleName());
      }
    }
    Instant injectedAt = context.clock().instant();
    if (!missing.isEmpty()) {
      FaultEvidence skipped =
          FaultEvidence.skipped(
              context.spec(),
              injectedAt,
              "pipeline " + context.pipeline().name() + " lacks " + String.join(", ", missing));
      return new Handle(context, injectedAt, skipped);
    }
    context
        .pipeline()
        .capability(FaultPoints.class)
        .orElseThrow()
        .arm("operator", context.spec().position(), "throw", context.spec().id());
    return new Handle(context, injectedAt, null);
  }

  private final class Handle implements FaultHandle {
    private final FaultContext context;
    private final Instant injectedAt;
    private final @Nullable FaultEvidence skipped;
    private boolean closed;

    Handle(FaultContext context, Instant injectedAt, @Nullable FaultEvidence skipped) {
      this.context = context;
      this.injectedAt = injectedAt;
      this.skipped = skipped;
    }

    @Override
    public FaultEvidence evidence() {
      if (skipped != null) {
        return skipped;
      }
      String id = context.spec().id();
      Optional<Instant> firedAt =
          context.pipeline().capability(FaultPoints.class).orElseThrow().firedAt(id);
      List<JobFailure> proofs =
          context.pipeline().capability(JobControl.class).orElseThrow().exceptionHistory().stream()
              .filter(failure -> failure.message().contains(id))
              .toList();
      FaultEvidence.Builder evidence =
          FaultEvidence.builder(id, name(), injectedAt)
              .what("armed fault point operator")
              .proofs(
                  proofs.stream()
                      .map(f -> "exception history at " + f.at() + ": " + f.message())
                      .toList());
      if (firedAt.isPresent() && !proofs.isEmpty()) {
        evidence.fired(firedAt.get());
      }
      return evidence.build();
    }

    @Override
    public FaultEvidence awaitFired(Duration timeout) throws InterruptedException {
      Instant deadline = Instant.now().plus(timeout);
      FaultEvidence evidence = evidence();
      while (evidence.status() == FaultStatus.ARMED && Instant.now().isBefore(deadline)) {
        Thread.sleep(10);
        evidence = evidence();
      }
      return evidence;
    }

    @Override
    public RecoveryEvidence awaitRecovery(Duration timeout)
        throws TimeoutException, InterruptedException {
      FaultEvidence evidence = evidence();
      if (!evidence.fired()) {
        return RecoveryEvidence.builder(injectedAt).detail("status", "not fired").build();
      }
      Instant firedAt = evidence.firedAt();
      JobControl job = context.pipeline().capability(JobControl.class).orElseThrow();
      TableAccess tables = context.pipeline().capability(TableAccess.class).orElseThrow();
      job.awaitRunning(timeout);
      CheckpointInfo checkpoint = job.awaitCompletedCheckpointAfter(firedAt, timeout);
      SnapshotInfo commit;
      try {
        commit =
            tables.snapshots(tables.currentTable()).stream()
                .filter(s -> s.committedAt().isAfter(firedAt))
                .findFirst()
                .orElseThrow(() -> new TimeoutException("no commit after " + firedAt));
      } catch (TimeoutException e) {
        throw e;
      } catch (Exception e) {
        throw new IllegalStateException("cannot read snapshots", e);
      }
      Instant checkpointAt =
          checkpoint.finishedAt() != null ? checkpoint.finishedAt() : Instant.now();
      return RecoveryEvidence.builder(firedAt)
          .runningAt(Instant.now())
          .firstCheckpoint(checkpoint.id(), checkpointAt)
          .firstCommit(commit.snapshotId(), commit.committedAt())
          .restarts(job.restartCount())
          .build();
    }

    @Override
    public void close() {
      if (!closed && skipped == null) {
        context.pipeline().capability(FaultPoints.class).orElseThrow().disarm(context.spec().id());
      }
      closed = true;
    }
  }
}
