package io.reliabilitylab.runner;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.reliabilitylab.record.ExerciseRecord;
import io.reliabilitylab.record.RunRecord;
import io.reliabilitylab.source.jdbc.WriterSettings;
import io.reliabilitylab.spi.check.CheckResult;
import io.reliabilitylab.spi.check.Evidence;
import io.reliabilitylab.spi.fault.FaultPosition;
import io.reliabilitylab.spi.pipeline.CheckpointInfo;
import io.reliabilitylab.spi.pipeline.FaultPoints;
import io.reliabilitylab.spi.pipeline.JobControl;
import io.reliabilitylab.spi.pipeline.LabOptions;
import io.reliabilitylab.spi.pipeline.TableAccess;
import io.reliabilitylab.workload.SourceChange;
import io.reliabilitylab.workload.SourceTransaction;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import org.apiguardian.api.API;

/**
 * {@code pressure}: backpressure by a throttled operator and a burst of source writes, measured
 * rather than turned into restarts. The operator fault point slows every element while the rest of
 * the workload is written as fast as the source takes it; barriers queue behind the backlog, so
 * checkpoints take longer. The throttle is lifted once the burst is written and a few checkpoints
 * ran under it; the commit lag (events written minus events visible in the changelog) must then
 * return to 0.
 *
 * <p>Recorded: checkpoint durations before and under pressure (p50, max), alignment times, failed
 * checkpoints, the lag series and its maximum, and the drain time. Checks: the job did not restart
 * ({@code pressure:no-restart}), the lag drained ({@code pressure:lag-drained}), and the pressure
 * was real ({@code pressure:checkpoints-slowed} is inconclusive when checkpoints were not slower).
 * The scenario runs with its own, longer checkpoint timeout ({@link #OPTIONS}).
 */
@API(status = EXPERIMENTAL)
public final class PressureExercise implements Exercise {

  /** Transactions per commit in the burst: the writer's fastest, as a backlog arrives. */
  static final int BURST_TRANSACTIONS_PER_COMMIT = 20;

  /** The operator fault point's throttle: each element waits this long while it is armed. */
  static final String THROTTLE_ACTION = "throttle-5ms";

  /** The pipeline options of a pressure scenario: checkpoints may take long, not fail. */
  public static final Map<String, String> OPTIONS =
      Map.of(LabOptions.CHECKPOINT_TIMEOUT_MS, "60000");

  private static final String FAULT_ID = "srl-exercise-pressure-throttle";
  private static final Duration SAMPLE = Duration.ofMillis(250);
  private static final int CHECKPOINTS_UNDER_PRESSURE = 3;

  @Override
  public String name() {
    return "pressure";
  }

  /** The burst commits this many transactions at once. */
  @Override
  public int transactionsPerCommit() {
    return BURST_TRANSACTIONS_PER_COMMIT;
  }

  @Override
  public Map<String, String> options() {
    return OPTIONS;
  }

  @Override
  public void run(ExerciseContext context) throws Exception {
    JobControl job = Capabilities.require(context.pipeline(), JobControl.class, "for pressure");
    TableAccess tables =
        Capabilities.require(context.pipeline(), TableAccess.class, "for pressure");
    FaultPoints points =
        Capabilities.require(context.pipeline(), FaultPoints.class, "to throttle an operator");
    if (!points.available().contains("operator")) {
      throw new IllegalStateException(
          "pipeline '"
              + context.pipeline().name()
              + "' has no 'operator' fault point to throttle (it has "
              + points.available()
              + "), so it cannot run the pressure scenario");
    }
    RunRecord.Builder record = context.record();
    Instant startedAt = context.clock().instant();
    long restartsBefore = job.restartCount();
    List<CheckpointInfo> baselineCheckpoints = completed(job.checkpoints());
    long lastCheckpointBefore =
        job.checkpoints().stream().mapToLong(CheckpointInfo::id).max().orElse(0);

    ExerciseRecord.Builder exercise = ExerciseRecord.builder(name(), startedAt);
    ChangelogWalk walk = new ChangelogWalk(tables);
    AtomicLong visibleMax = new AtomicLong(-1);
    ChangelogWalk.Visitor visible =
        (snapshot, event) -> visibleMax.accumulateAndGet(event.eventId(), Math::max);
    walk.walk(visible);
    AtomicLong writtenMax = new AtomicLong(visibleMax.get());
    long lastEventId = context.workload().lastEventId().orElse(-1);

    List<SourceTransaction> rest = context.rest();
    long maxLag = 0;
    Instant throttledAt;
    Instant liftedAt = null;
    Instant drainedAt = null;
    try (BackgroundWrites writes = new BackgroundWrites("lab-pressure-burst", context.timeout())) {
      try {
        points.arm("operator", new FaultPosition.Now(), THROTTLE_ACTION, FAULT_ID);
        throttledAt = context.clock().instant();
        exercise.fact("throttle", THROTTLE_ACTION + " at the operator fault point");
        // The burst: many transactions per commit, no rate limit.
        Future<?> burst =
            writes.submit(
                () ->
                    context
                        .source()
                        .writer(
                            WriterSettings.orders()
                                .transactionsPerCommit(BURST_TRANSACTIONS_PER_COMMIT)
                                .listener(
                                    (transaction, committedAt) ->
                                        writtenMax.accumulateAndGet(
                                            lastWritten(transaction), Math::max)))
                        .write(rest));
        Instant deadline = throttledAt.plus(context.timeout());
        while (true) {
          Instant now = context.clock().instant();
          walk.walk(visible);
          long lag = Math.max(0, writtenMax.get() - visibleMax.get());
          maxLag = Math.max(maxLag, lag);
          exercise.point("lag_events", Duration.between(startedAt, now).toMillis(), lag);
          if (liftedAt == null
              && burst.isDone()
              && checkpointsTriggeredAfter(job, lastCheckpointBefore, throttledAt)
                  >= CHECKPOINTS_UNDER_PRESSURE) {
            points.disarm(FAULT_ID);
            liftedAt = now;
          }
          if (liftedAt != null && burst.isDone() && visibleMax.get() >= lastEventId) {
            drainedAt = now;
            break;
          }
          if (now.isAfter(deadline)) {
            break;
          }
          Thread.sleep(SAMPLE.toMillis());
        }
        writes.await(burst);
      } finally {
        points.disarm(FAULT_ID);
      }
    }

    Instant liftedOrNow = liftedAt == null ? context.clock().instant() : liftedAt;
    List<CheckpointInfo> during =
        job.checkpoints().stream()
            .filter(c -> c.id() > lastCheckpointBefore && !c.savepoint())
            .filter(c -> !c.triggeredAt().isAfter(liftedOrNow))
            .toList();
    List<CheckpointInfo> pressureCompleted = completed(during);
    long failed = during.stream().filter(c -> "FAILED".equals(c.status())).count();
    for (CheckpointInfo checkpoint : job.checkpoints()) {
      if (checkpoint.id() > lastCheckpointBefore && checkpoint.duration() != null) {
        exercise.point(
            "checkpoint_ms",
            Math.max(0, Duration.between(startedAt, checkpoint.triggeredAt()).toMillis()),
            checkpoint.duration().toMillis());
      }
    }
    long baselineP50 = percentile(baselineCheckpoints, CheckpointInfo::duration, 50);
    long baselineMax = percentile(baselineCheckpoints, CheckpointInfo::duration, 100);
    long pressureP50 = percentile(pressureCompleted, CheckpointInfo::duration, 50);
    long pressureMax = percentile(pressureCompleted, CheckpointInfo::duration, 100);
    exercise
        .figure("checkpoints_baseline", baselineCheckpoints.size())
        .figure("checkpoint_p50_ms_baseline", baselineP50)
        .figure("checkpoint_max_ms_baseline", baselineMax)
        .figure("alignment_max_ms_baseline", percentile(baselineCheckpoints, alignment(), 100))
        .figure("checkpoints_pressure", pressureCompleted.size())
        .figure("checkpoint_p50_ms_pressure", pressureP50)
        .figure("checkpoint_max_ms_pressure", pressureMax)
        .figure("alignment_p50_ms_pressure", percentile(pressureCompleted, alignment(), 50))
        .figure("alignment_max_ms_pressure", percentile(pressureCompleted, alignment(), 100))
        .figure("failed_checkpoints", failed)
        .figure("burst_events", rest.stream().mapToLong(t -> t.changes().size()).sum())
        .figure("max_lag_events", maxLag)
        .figure("throttled_ms", Duration.between(throttledAt, liftedOrNow).toMillis());
    if (drainedAt != null) {
      exercise.figure("drain_ms", Duration.between(liftedOrNow, drainedAt).toMillis());
    }
    long restarts = job.restartCount() - restartsBefore;
    exercise.figure("restarts", restarts);
    record.exercise(exercise.build(context.clock().instant()));

    Evidence evidence =
        Evidence.builder()
            .count("checkpoint_max_ms_baseline", baselineMax)
            .count("checkpoint_max_ms_pressure", pressureMax)
            .count("failed_checkpoints", failed)
            .count("max_lag_events", maxLag)
            .count("restarts", restarts)
            .build();
    record.check(
        restarts == 0
            ? CheckResult.passed(
                "pressure:no-restart", "the job did not restart under pressure", evidence)
            : CheckResult.failed(
                "pressure:no-restart",
                "the job restarted "
                    + restarts
                    + " times under pressure: the checkpoint timeout turned pressure into"
                    + " failures",
                evidence));
    record.check(
        drainedAt != null
            ? CheckResult.passed(
                "pressure:lag-drained",
                "the lag peaked at "
                    + maxLag
                    + " events and returned to 0 "
                    + Duration.between(liftedOrNow, drainedAt).toMillis()
                    + " ms after the throttle was lifted",
                evidence)
            : CheckResult.failed(
                "pressure:lag-drained",
                "the lag did not return to 0 within "
                    + context.timeout().toSeconds()
                    + " s (last written event "
                    + writtenMax.get()
                    + ", last visible "
                    + visibleMax.get()
                    + ")",
                evidence));
    record.check(
        pressureMax > baselineMax
            ? CheckResult.passed(
                "pressure:checkpoints-slowed",
                "checkpoints took up to "
                    + pressureMax
                    + " ms under pressure against "
                    + baselineMax
                    + " ms before",
                evidence)
            : CheckResult.inconclusive(
                "pressure:checkpoints-slowed",
                "checkpoints were not slower under the throttle (max "
                    + pressureMax
                    + " ms against "
                    + baselineMax
                    + " ms before): no pressure was shown",
                evidence));
  }

  private static long lastWritten(SourceTransaction transaction) {
    long last = -1;
    for (SourceChange change : transaction.changes()) {
      Long id = change.writtenEventId();
      if (id != null) {
        last = Math.max(last, id);
      }
    }
    return last;
  }

  private static long checkpointsTriggeredAfter(JobControl job, long lastBefore, Instant at) {
    return job.checkpoints().stream()
        .filter(c -> c.id() > lastBefore && !c.savepoint() && !c.triggeredAt().isBefore(at))
        .filter(c -> c.completed() || "FAILED".equals(c.status()))
        .count();
  }

  private static List<CheckpointInfo> completed(List<CheckpointInfo> checkpoints) {
    return checkpoints.stream().filter(c -> c.completed() && !c.savepoint()).toList();
  }

  private static Function<CheckpointInfo, Duration> alignment() {
    return CheckpointInfo::alignmentDuration;
  }

  /** The {@code p}-th percentile (nearest rank) in milliseconds, 0 for no value. */
  static long percentile(
      List<CheckpointInfo> checkpoints, Function<CheckpointInfo, Duration> value, int p) {
    List<Long> millis = new ArrayList<>();
    for (CheckpointInfo checkpoint : checkpoints) {
      Duration duration = value.apply(checkpoint);
      if (duration != null) {
        millis.add(duration.toMillis());
      }
    }
    if (millis.isEmpty()) {
      return 0;
    }
    millis.sort(Long::compare);
    int rank = (int) Math.ceil(p / 100.0 * millis.size());
    return millis.get(Math.max(0, Math.min(millis.size() - 1, rank - 1)));
  }
}
