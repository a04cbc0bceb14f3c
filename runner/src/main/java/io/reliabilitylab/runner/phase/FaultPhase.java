package io.reliabilitylab.runner.phase;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.reliabilitylab.record.FaultRecord;
import io.reliabilitylab.runner.BackgroundWrites;
import io.reliabilitylab.runner.ScenarioPlan;
import io.reliabilitylab.runner.WorkloadPhases;
import io.reliabilitylab.source.jdbc.WriterSettings;
import io.reliabilitylab.spi.pipeline.LabOptions;
import io.reliabilitylab.workload.SourceTransaction;
import io.reliabilitylab.workload.WriteReport;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apiguardian.api.API;

/**
 * Injects the planned faults one after another, each while its own segment of the workload is
 * written; proves that each fired, awaits its recovery and records both. Faults armed when the job
 * was submitted (the snapshot phase) are completed first, while their segments are written.
 */
@API(status = INTERNAL)
public final class FaultPhase implements Phase {

  /**
   * How long a fault's segment takes to write: long enough to span a fault at the checkpoint after
   * next and most of its recovery — five checkpoint intervals, within these bounds (the longest
   * also when the plan names no interval).
   */
  private static final Duration SHORTEST_SPAN = Duration.ofMillis(2500);

  private static final Duration LONGEST_SPAN = Duration.ofSeconds(4);

  private static final int SPAN_INTERVALS = 5;

  /**
   * How long a fault's writes wait for its injection to return or signal that it is armed before
   * they begin anyway (a plugin's injection that performs its fault without signalling).
   */
  private static final Duration ARMING_GRACE = Duration.ofSeconds(2);

  private static final String WRITER = "lab-workload-writer";

  @Override
  public String name() {
    return "faults";
  }

  @Override
  public Outcome run(Scenario scenario) throws Exception {
    int faults = scenario.plan().faults().size();
    if (faults == 0) {
      return Outcome.proceed();
    }
    List<List<SourceTransaction>> segments = WorkloadPhases.segments(scenario.rest(), faults);
    int first = 0;
    if (scenario.snapshotPhase()) {
      List<FaultInjection.Armed> armed = scenario.armedAtSubmission();
      if (armed.size() != scenario.plan().snapshotPhaseFaults()) {
        return Outcome.aborted(
            "pipeline '"
                + scenario.plan().pipeline()
                + "' did not call the job-submitted listener, so the snapshot-phase faults"
                + " were never armed");
      }
      first = armed.size();
      completeArmed(scenario, segments.subList(0, first).stream().flatMap(List::stream).toList());
    }
    for (int index = first; index < faults; index++) {
      inject(scenario, index, segments.get(index));
    }
    return Outcome.proceed();
  }

  /** Completes the faults armed at submission while {@code segment} is written. */
  private static void completeArmed(Scenario scenario, List<SourceTransaction> segment)
      throws Exception {
    List<FaultInjection.Armed> armed = scenario.armedAtSubmission();
    try (BackgroundWrites writes = writes(scenario)) {
      Future<WriteReport> writing =
          writes.submit(
              () ->
                  scenario
                      .source()
                      .writer(WriterSettings.of(scenario.table().name()))
                      .write(segment));
      List<FaultRecord> faults = new ArrayList<>();
      WriteReport written = null;
      try {
        while (!armed.isEmpty()) {
          faults.add(FaultInjection.complete(scenario, armed.remove(0)));
        }
        written = writes.await(writing);
      } finally {
        for (FaultRecord fault : faults) {
          scenario.record().fault(FaultInjection.withWriter(fault, written));
        }
      }
    }
  }

  /**
   * Injects fault {@code index} while {@code segment} is written: paced to span the fault, since
   * unpaced it would be written before the fault fires. The writes begin once the fault is armed,
   * so that a fault counting changes (after event k, the k-th record) sees all of them: when its
   * injection returns, or when an injection that performs the fault (a broker down while changes
   * arrive, a connector rewound by some events) signals it, or after a grace for one that never
   * signals.
   */
  private static void inject(Scenario scenario, int index, List<SourceTransaction> segment)
      throws Exception {
    try (BackgroundWrites writes = writes(scenario)) {
      CountDownLatch armedOrGrace = new CountDownLatch(1);
      Future<WriteReport> writing =
          writes.submit(
              () -> {
                armedOrGrace.await(ARMING_GRACE.toMillis(), TimeUnit.MILLISECONDS);
                return BackgroundWrites.paced(scenario.source(), segment, span(scenario.plan()))
                    .write(segment);
              });
      FaultInjection.Armed armed;
      try {
        armed =
            FaultInjection.arm(
                scenario, scenario.running().pipeline(), index, armedOrGrace::countDown);
      } finally {
        armedOrGrace.countDown();
      }
      FaultRecord fault = FaultInjection.complete(scenario, armed);
      WriteReport written = null;
      try {
        written = writes.await(writing);
      } finally {
        scenario.record().fault(FaultInjection.withWriter(fault, written));
      }
    }
  }

  static Duration span(ScenarioPlan plan) {
    String interval = plan.options().get(LabOptions.CHECKPOINT_INTERVAL_MS);
    if (interval == null || !interval.strip().matches("\\d{1,9}")) {
      return LONGEST_SPAN;
    }
    Duration intervals = Duration.ofMillis(Long.parseLong(interval.strip()) * SPAN_INTERVALS);
    return intervals.compareTo(SHORTEST_SPAN) < 0
        ? SHORTEST_SPAN
        : intervals.compareTo(LONGEST_SPAN) > 0 ? LONGEST_SPAN : intervals;
  }

  private static BackgroundWrites writes(Scenario scenario) {
    return new BackgroundWrites(WRITER, scenario.plan().catchUpTimeout());
  }
}
