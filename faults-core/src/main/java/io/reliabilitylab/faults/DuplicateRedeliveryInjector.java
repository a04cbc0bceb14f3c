package io.reliabilitylab.faults;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import com.google.auto.service.AutoService;
import io.reliabilitylab.kit.Observation;
import io.reliabilitylab.kit.PipelineView;
import io.reliabilitylab.kit.ProofVerdict;
import io.reliabilitylab.kit.ProvenFault;
import io.reliabilitylab.spi.fault.FaultContext;
import io.reliabilitylab.spi.fault.FaultHandle;
import io.reliabilitylab.spi.fault.FaultInjector;
import io.reliabilitylab.spi.fault.FaultPosition;
import io.reliabilitylab.spi.fault.FaultSpec;
import io.reliabilitylab.spi.fault.FaultVariant;
import io.reliabilitylab.spi.pipeline.JobControl;
import io.reliabilitylab.spi.pipeline.PipelineCapability;
import io.reliabilitylab.spi.pipeline.ReplayDeduplication;
import io.reliabilitylab.spi.pipeline.SourceConnectorControl;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apiguardian.api.API;

/**
 * {@code duplicate-redelivery}: the source connector's offsets are remembered, {@code events} more
 * change records are published, and the connector is restarted from the remembered offsets, so that
 * those records reach the broker twice. Rewinding the job's consumer group would not do this:
 * Flink's Kafka source restores its offsets from its own state, not from the group.
 *
 * <p>Parameters: {@code events} = how many change records to publish between the mark and the
 * rewind (default {@value #DEFAULT_EVENTS}).
 *
 * <p>Proof: the connector published records again after the rewind and caught up past where it had
 * been, and the job's deduplication recognized at least as many replays as were republished, in one
 * run of the job (its counters reset on a restart): the redelivery reached the job. Whether the job
 * dropped them is the checks' to judge (duplicated envelopes); the count it dropped is recorded.
 */
@API(status = EXPERIMENTAL)
@AutoService(FaultInjector.class)
public final class DuplicateRedeliveryInjector extends BuiltInFault {

  /** The parameter for how many records are published between the mark and the rewind. */
  public static final String EVENTS = "events";

  static final long DEFAULT_EVENTS = 50;

  private static final Duration POLL = Duration.ofMillis(50);

  @Override
  public String name() {
    return "duplicate-redelivery";
  }

  @Override
  public String description() {
    return "Restarts the source connector from older offsets so that change events reach the"
        + " broker twice; the job's deduplication must drop the replays";
  }

  @Override
  public Set<Class<? extends PipelineCapability>> requiredCapabilities() {
    return Set.of(JobControl.class, SourceConnectorControl.class, ReplayDeduplication.class);
  }

  @Override
  public Set<String> changeCountParameters() {
    return Set.of(EVENTS);
  }

  @Override
  public Set<FaultPosition.Kind> supportedPositions() {
    return EnumSet.of(FaultPosition.Kind.NOW);
  }

  @Override
  public List<FaultVariant> variants() {
    return List.of(FaultVariant.standard(description()));
  }

  @Override
  Map<String, String> parameters() {
    return Map.of(
        EVENTS,
        "change records published between the mark and the rewind (default "
            + DEFAULT_EVENTS
            + ")");
  }

  @Override
  FaultHandle start(FaultContext context, PipelineView view) throws Exception {
    FaultSpec spec = context.spec();
    long events = positiveLong(spec, EVENTS, DEFAULT_EVENTS);
    SourceConnectorControl connector =
        context.pipeline().capability(SourceConnectorControl.class).orElseThrow();
    ReplayDeduplication dedup =
        context.pipeline().capability(ReplayDeduplication.class).orElseThrow();
    Observation baseline = view.observe();
    Map<String, String> details = new LinkedHashMap<>();
    details.put(EVENTS, Long.toString(events));

    String mark = connector.markOffsets();
    long publishedAtMark = connector.published();
    details.put("offsets_mark", mark);
    details.put("published_at_mark", Long.toString(publishedAtMark));
    // the changes to replay are the ones written from now on
    context.signalArmed();
    long deadline = System.nanoTime() + context.timeout().toNanos();
    while (connector.published() < publishedAtMark + events) {
      if (System.nanoTime() > deadline) {
        return skipped(
            context,
            "the connector published "
                + (connector.published() - publishedAtMark)
                + " of "
                + events
                + " change records after the mark within "
                + context.timeout()
                + "; the workload wrote too little to replay (lower 'events' or write more)");
      }
      Thread.sleep(POLL.toMillis());
    }
    long droppedBefore = dedup.droppedReplays();
    long seenBefore = dedup.seenReplays();
    details.put("published_before_rewind", Long.toString(connector.published()));
    details.put("dropped_replays_before", Long.toString(droppedBefore));
    details.put("seen_replays_before", Long.toString(seenBefore));
    try {
      connector.restartFrom(mark);
    } catch (Exception e) {
      // inject must not throw with the connector left stopped by a half-done rewind
      try {
        if (!"RUNNING".equals(connector.status())) {
          connector.start();
        }
      } catch (Exception restart) {
        e.addSuppressed(restart);
      }
      throw e;
    }
    Instant rewoundAt = context.clock().instant();
    details.put("rewound_at", rewoundAt.toString());
    return ProvenFault.builder(context, view, baseline)
        .what("restarted the source connector from offsets " + events + " records back")
        .details(details)
        .proof(
            (before, now) -> {
              if (!now.jobId().equals(before.jobId())
                  || now.restartCount() != before.restartCount()) {
                return ProofVerdict.refuted(
                    "the job restarted during the redelivery, so its dedup counter restarted too"
                        + " and cannot prove the replays were dropped");
              }
              // caught up first: only then is the republished count final, and a count read
              // before catching up could be too small to hold the dedup to
              boolean caughtUp = connector.caughtUp();
              long republished = connector.republished();
              if (republished < 1 || !caughtUp) {
                return ProofVerdict.pending(
                    "the connector republished " + republished + " record(s) so far");
              }
              long seen;
              long dropped;
              try {
                seen = dedup.seenReplays() - seenBefore;
                dropped = dedup.droppedReplays() - droppedBefore;
              } catch (Exception e) {
                return ProofVerdict.pending("the dedup counter is unavailable: " + e.getMessage());
              }
              if (seen < republished) {
                return ProofVerdict.pending(
                    "the job's deduplication saw "
                        + seen
                        + " of "
                        + republished
                        + " republished records so far");
              }
              return ProofVerdict.proven(
                  rewoundAt,
                  List.of(
                      "the connector republished "
                          + republished
                          + " change record(s) it had published before the rewind, then caught"
                          + " up",
                      "the job's deduplication saw "
                          + seen
                          + " replay(s) since the rewind (>= "
                          + republished
                          + ") and dropped "
                          + dropped),
                  Map.of(
                      "republished", Long.toString(republished),
                      "seen_replays", Long.toString(seen),
                      "dropped_replays", Long.toString(dropped)));
            })
        .build();
  }
}
