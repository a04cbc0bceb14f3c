package io.reliabilitylab.runner.phase;

import io.reliabilitylab.faults.FaultIds;
import io.reliabilitylab.kit.CapabilityCheck;
import io.reliabilitylab.kit.SkippedFault;
import io.reliabilitylab.record.FaultRecord;
import io.reliabilitylab.record.RunRecord;
import io.reliabilitylab.runner.PlannedFault;
import io.reliabilitylab.spi.Failures;
import io.reliabilitylab.spi.check.CheckResult;
import io.reliabilitylab.spi.check.Evidence;
import io.reliabilitylab.spi.fault.FaultContext;
import io.reliabilitylab.spi.fault.FaultEvidence;
import io.reliabilitylab.spi.fault.FaultHandle;
import io.reliabilitylab.spi.fault.FaultInjector;
import io.reliabilitylab.spi.fault.FaultPosition;
import io.reliabilitylab.spi.fault.FaultSpec;
import io.reliabilitylab.spi.fault.RecoveryEvidence;
import io.reliabilitylab.spi.pipeline.JobControl;
import io.reliabilitylab.spi.pipeline.PipelineUnderTest;
import io.reliabilitylab.workload.WriteReport;
import io.reliabilitylab.workload.WriterReconnection;
import io.reliabilitylab.workload.oracle.Oracle;
import java.nio.file.Files;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeoutException;
import org.jspecify.annotations.Nullable;

/** Injects one planned fault, proves that it fired, awaits its recovery and records both. */
final class FaultInjection {

  private FaultInjection() {}

  /** A fault armed (or performed, or skipped) on the pipeline, not yet proven. */
  record Armed(FaultInjector injector, FaultSpec spec, FaultHandle handle, Instant injectedAt) {}

  /**
   * Arms the plan's fault number {@code index} (from 0) at its position, or performs it now. A
   * pipeline lacking a capability the fault declares gets the fault skipped with the missing
   * capability named, whether or not the fault checks this itself.
   */
  static Armed arm(Scenario scenario, PipelineUnderTest pipeline, int index, Runnable onArmed)
      throws Exception {
    PlannedFault planned = scenario.plan().faults().get(index);
    FaultInjector injector = scenario.lab().fault(planned.fault());
    String id = FaultIds.of(index + 1, injector.name());
    // Only a position counted from the injection asks the job for its checkpoints: a fault armed
    // the moment the job is submitted must not depend on a job that is still initializing.
    FaultPosition resolved =
        planned.countedFromInjection()
            ? planned.resolvedPosition(latestCheckpoint(pipeline))
            : planned.position();
    FaultPosition position = resolved != null ? resolved : defaultPosition(injector, pipeline);
    FaultSpec spec = new FaultSpec(id, injector.name(), position, planned.parameters());
    FaultContext context =
        new FaultContext(
            WithLabCapabilities.of(pipeline, scenario.source()),
            spec,
            scenario.clock(),
            scenario.plan().catchUpTimeout(),
            Files.createDirectories(scenario.directory().resolve(id)),
            onArmed);
    Instant injectedAt = scenario.clock().instant();
    // The runner checks what the fault declares, so that a plugin fault that forgets to check is
    // skipped too (the run is then inconclusive), never injected into a pipeline it cannot prove.
    Optional<FaultHandle> skipped =
        CapabilityCheck.skipIfMissing(injector, context)
            .or(
                () ->
                    unreachable(scenario, position).map(why -> SkippedFault.because(context, why)));
    FaultHandle handle = skipped.isPresent() ? skipped.get() : injector.inject(context);
    return new Armed(injector, spec, handle, injectedAt);
  }

  /**
   * Why {@code position} cannot be reached in this scenario, or empty: a snapshot-phase position
   * counts the rows of the table's snapshot, which holds the preloaded table's live rows, not the
   * changes written; a position past them would wait for the catch-up timeout and then read as a
   * fault that did not fire.
   */
  static Optional<String> unreachable(Scenario scenario, FaultPosition position) {
    if (!(position instanceof FaultPosition.SnapshotPhase phase)) {
      return Optional.empty();
    }
    int rows =
        Oracle.expect(scenario.workload().prefix(scenario.baselineCount())).currentRows().size();
    if (phase.rows() < rows) {
      return Optional.empty();
    }
    return Optional.of(
        "snapshot-phase:"
            + phase.rows()
            + " needs more than "
            + phase.rows()
            + " rows in the table's snapshot, and the preloaded table holds "
            + rows
            + " (keys updated and deleted count once or not at all): raise --events");
  }

  /**
   * Proves that the fault fired, awaits its recovery and releases the fault; returns the fault's
   * record for the caller to add (with what the workload writer saw meanwhile).
   */
  static FaultRecord complete(Scenario scenario, Armed armed) throws Exception {
    Duration timeout = scenario.plan().catchUpTimeout();
    RunRecord.Builder record = scenario.record();
    try (FaultHandle handle = armed.handle()) {
      FaultEvidence evidence = handle.awaitFired(timeout);
      RecoveryEvidence recovery = null;
      if (evidence.fired()) {
        try {
          recovery = handle.awaitRecovery(timeout);
        } catch (TimeoutException e) {
          record.check(
              CheckResult.failed(
                  "recovery:" + armed.spec().id(),
                  Failures.oneLine(e),
                  Evidence.builder().fact("fault", armed.spec().id()).build()));
        }
      }
      scenario.timing("fault:" + armed.injector().name(), armed.injectedAt());
      return FaultRecord.of(armed.spec(), evidence, recovery);
    }
  }

  /**
   * The workload writer's reconnections during a fault, as recovery details: how many, and each
   * lost commit with what the database said of it (the oracle follows the database).
   */
  static FaultRecord withWriter(FaultRecord fault, @Nullable WriteReport written) {
    if (written == null || written.reconnections().isEmpty()) {
      return fault;
    }
    Map<String, String> details = new LinkedHashMap<>();
    details.put("writer_reconnections", Integer.toString(written.reconnections().size()));
    int n = 0;
    for (WriterReconnection reconnection : written.reconnections()) {
      details.put("writer_reconnection_" + ++n, reconnection.describe());
    }
    return fault.withRecoveryDetails(details);
  }

  /**
   * Where a fault fires when the plan does not say: shortly ahead of the running job, at a logical
   * position (a checkpoint id) that replays. A checkpoint suits every fault point (the
   * enumerator's, the storage's, the sink's commit); a variant that fires on the data path names
   * its position itself ({@code after-event:K}, {@code snapshot-phase:K}).
   */
  private static FaultPosition defaultPosition(FaultInjector injector, PipelineUnderTest pipeline) {
    Set<FaultPosition.Kind> kinds = injector.supportedPositions();
    long nextCheckpoint = latestCheckpoint(pipeline) + 2;
    if (kinds.contains(FaultPosition.Kind.AT_CHECKPOINT)) {
      return new FaultPosition.AtCheckpoint(nextCheckpoint);
    }
    if (kinds.contains(FaultPosition.Kind.AROUND_COMMIT)) {
      return new FaultPosition.AroundCommit(nextCheckpoint, false);
    }
    return new FaultPosition.Now();
  }

  /** The id of the job's latest checkpoint (any status), or 0 before the first. */
  private static long latestCheckpoint(PipelineUnderTest pipeline) {
    return pipeline
        .capability(JobControl.class)
        .map(job -> job.checkpoints().stream().mapToLong(c -> c.id()).max().orElse(0))
        .orElse(0L);
  }
}
