package io.reliabilitylab.harness.bench;

import io.reliabilitylab.runner.ChangelogWalk;
import io.reliabilitylab.source.jdbc.CdcSource;
import io.reliabilitylab.source.jdbc.ChangeWriter;
import io.reliabilitylab.source.jdbc.WriterSettings;
import io.reliabilitylab.spi.pipeline.TableAccess;
import io.reliabilitylab.workload.WorkloadConfig;
import io.reliabilitylab.workload.WorkloadGenerator;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The bench's optional sustain phase: a fixed offered rate for a duration, without holding the
 * workload in memory ({@link ShiftedRounds}), with the lag sampled once a second; bounded when the
 * second half's largest lag is not much above the first half's.
 */
final class SustainPhase {

  private static final Duration SAMPLE = Duration.ofSeconds(1);

  /** Keys of the sustain phase start far above any key the mode's and latency workloads use. */
  private static final long SUSTAIN_KEY_BASE = 1_000_000_000_000L;

  private final CdcSource source;
  private final String tableName;
  private final BenchConfig config;
  private final BenchMode mode;
  private final SinkWatch watch;

  SustainPhase(
      CdcSource source, String tableName, BenchConfig config, BenchMode mode, SinkWatch watch) {
    this.source = source;
    this.tableName = tableName;
    this.config = config;
    this.mode = mode;
    this.watch = watch;
  }

  /**
   * Offers the configured rate for the configured duration on keys of its own, samples the lag once
   * a second, and waits for the drain; {@code lastEventId} is the last event id written before.
   */
  BenchReport.Sustain run(TableAccess tables, ChangelogWalk walk, long lastEventId)
      throws Exception {
    Duration duration = Objects.requireNonNull(config.sustain());
    double rate = config.sustainRate();
    int perRound = (int) Math.max(1_000, Math.min(200_000, Math.round(rate)));
    ShiftedRounds rounds =
        new ShiftedRounds(
            WorkloadGenerator.generate(
                WorkloadConfig.builder()
                    .events(perRound)
                    .seed(config.seed() + 1)
                    .maxChangesPerTransaction(1)
                    .firstEventId(lastEventId + 1)
                    .build()),
            SUSTAIN_KEY_BASE);
    watch.say(
        "[%s] sustain: offering %.0f events/s for %d s", mode.label(), rate, duration.toSeconds());
    AtomicLong writtenMax = new AtomicLong(lastEventId);
    AtomicLong visibleMax = new AtomicLong(lastEventId);
    AtomicLong writtenEvents = new AtomicLong();
    ChangeWriter writer =
        source.writer(
            WriterSettings.of(tableName)
                .eventsPerSecond(rate)
                .transactionsPerCommit(config.transactionsPerCommit(mode))
                .listener(
                    (transaction, committedAt) -> {
                      writtenEvents.addAndGet(transaction.changes().size());
                      long written = Transactions.lastWrittenEventId(List.of(transaction), 0);
                      writtenMax.accumulateAndGet(written, Math::max);
                    }));
    ExecutorService writing =
        Executors.newSingleThreadExecutor(r -> new Thread(r, "bench-sustain-writer"));
    long startNanos = System.nanoTime();
    long endNanos = startNanos + duration.toNanos();
    Future<Long> writes =
        writing.submit(
            () -> {
              long round = 0;
              while (System.nanoTime() < endNanos) {
                // Each round starts when the offered rate says so, so a slow round is caught up.
                long due = startNanos + (long) (round * rounds.changesPerRound() * 1e9 / rate);
                long wait = due - System.nanoTime();
                if (wait > 0) {
                  TimeUnit.NANOSECONDS.sleep(wait);
                }
                writer.write(rounds.round(round));
                round++;
              }
              return System.nanoTime();
            });
    List<Long> lags = new ArrayList<>();
    List<Long> sampledAtNanos = new ArrayList<>();
    ChangelogWalk.Visitor trackVisible =
        (snapshot, event) -> visibleMax.accumulateAndGet(event.eventId(), Math::max);
    long writesEndedNanos;
    try {
      long nextSample = startNanos + SAMPLE.toNanos();
      while (!writes.isDone()) {
        long wait = nextSample - System.nanoTime();
        if (wait > 0) {
          try {
            writes.get(wait, TimeUnit.NANOSECONDS);
          } catch (TimeoutException sampleDue) {
            // the writer is still writing: time for the next sample
          }
        }
        if (writes.isDone()) {
          break;
        }
        walk.walk(trackVisible);
        lags.add(Math.max(0, writtenMax.get() - visibleMax.get()));
        sampledAtNanos.add(System.nanoTime() - startNanos);
        nextSample += SAMPLE.toNanos();
        if (lags.size() % 10 == 0) {
          watch.say(
              "[%s] sustain: %d s, lag %d events",
              mode.label(), lags.size(), lags.get(lags.size() - 1));
        }
      }
      writesEndedNanos = writes.get();
    } finally {
      writing.shutdownNow();
      writing.awaitTermination(config.catchUpTimeout().toSeconds(), TimeUnit.SECONDS);
    }
    long lastWritten = writtenMax.get();
    Instant drainStart = watch.clock().instant();
    Instant deadline = watch.deadline();
    boolean drained = false;
    while (true) {
      walk.walk(trackVisible);
      if (visibleMax.get() >= lastWritten) {
        drained = true;
        break;
      }
      if (!watch.clock().instant().isBefore(deadline)) {
        break;
      }
      Thread.sleep(SinkWatch.POLL.toMillis());
    }
    long drainMs = Duration.between(drainStart, watch.clock().instant()).toMillis();
    long finalLag = Math.max(0, lastWritten - visibleMax.get());
    long half = duration.toNanos() / 2;
    long firstHalf = 0;
    long secondHalf = 0;
    for (int i = 0; i < lags.size(); i++) {
      if (sampledAtNanos.get(i) < half) {
        firstHalf = Math.max(firstHalf, lags.get(i));
      } else {
        secondHalf = Math.max(secondHalf, lags.get(i));
      }
    }
    long allowance = Math.round(rate * config.checkpointInterval().toMillis() / 1_000.0);
    boolean bounded = drained && secondHalf <= Math.round(firstHalf * 1.5) + allowance;
    double achieved =
        Stats.perSecond(writtenEvents.get(), Duration.ofNanos(writesEndedNanos - startNanos));
    watch.say(
        "[%s] sustain: %.0f events/s achieved, max lag %d, final lag %d after %d ms: %s",
        mode.label(),
        achieved,
        Math.max(firstHalf, secondHalf),
        finalLag,
        drainMs,
        bounded ? "bounded" : "NOT bounded");
    return new BenchReport.Sustain(
        mode.label(),
        duration.toMillis(),
        rate,
        achieved,
        writtenEvents.get(),
        Math.max(firstHalf, secondHalf),
        firstHalf,
        secondHalf,
        finalLag,
        drainMs,
        drained,
        bounded,
        lags);
  }
}
