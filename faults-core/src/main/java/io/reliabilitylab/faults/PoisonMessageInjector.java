package io.reliabilitylab.faults;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import com.google.auto.service.AutoService;
import io.reliabilitylab.kit.Observation;
import io.reliabilitylab.kit.PipelineView;
import io.reliabilitylab.kit.ProofVerdict;
import io.reliabilitylab.kit.ProvenFault;
import io.reliabilitylab.spi.check.DlqRecord;
import io.reliabilitylab.spi.fault.FaultContext;
import io.reliabilitylab.spi.fault.FaultHandle;
import io.reliabilitylab.spi.fault.FaultInjector;
import io.reliabilitylab.spi.fault.FaultPosition;
import io.reliabilitylab.spi.fault.FaultSpec;
import io.reliabilitylab.spi.fault.FaultVariant;
import io.reliabilitylab.spi.pipeline.BrokerControl;
import io.reliabilitylab.spi.pipeline.CheckpointInfo;
import io.reliabilitylab.spi.pipeline.DeadLetterQueue;
import io.reliabilitylab.spi.pipeline.JobControl;
import io.reliabilitylab.spi.pipeline.PipelineCapability;
import io.reliabilitylab.spi.pipeline.SnapshotInfo;
import io.reliabilitylab.spi.pipeline.SourceConnectorControl;
import io.reliabilitylab.spi.pipeline.SourceConnectorControl.CorruptedRecord;
import io.reliabilitylab.spi.pipeline.TableAccess;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * {@code poison-message}: the k-th change record the source connector publishes from now on reaches
 * the broker with corrupted value bytes (it carries a change the tables need), and the connector
 * stops right after it. The job must quarantine it in the dead-letter topic and keep running; the
 * lab then replays a repair (the intended change decoded, re-encoded and republished with its
 * primary key), waits until the change shows in the changelog table, and only then starts the
 * connector again.
 *
 * <p>Parameters: {@code k} (default {@value #DEFAULT_K}); {@code repair} = {@code true} (default)
 * or {@code false}. Without repair the change is lost to the tables: the {@code unrepaired} variant
 * is the control that shows the checks catch it.
 *
 * <p>Proof: the dead-letter topic holds exactly one record for the corrupted record's topic,
 * partition and offset, with error metadata and the corrupted bytes' SHA-256; the job was not
 * restarted by it; with repair, the repaired change was republished and seen in the changelog
 * before the connector resumed; the connector runs again. A job that reads past the corrupted
 * record (its consumer group commits a later offset) without quarantining it dropped it: the fault
 * fired all the same (detail {@code read_past_without_dead_letter}, nothing to repair), and the
 * checks judge the change it lost. A job that fails on the record instead (it restarts with no dead
 * letter written; detail {@code job_failed_on_poison}, with its failure) fired it too: it reads the
 * record again at every restart and never recovers, which fails the run's recovery.
 */
@API(status = EXPERIMENTAL)
@AutoService(FaultInjector.class)
public final class PoisonMessageInjector extends BuiltInFault {

  /** The parameter choosing which change record is corrupted, counted from injection. */
  public static final String K = "k";

  /** The parameter choosing whether the lab replays a repair before resuming the connector. */
  public static final String REPAIR = "repair";

  /** The variant without repair, expected to diverge. */
  public static final String UNREPAIRED = "unrepaired";

  static final long DEFAULT_K = 5;

  private static final Duration POLL = Duration.ofMillis(50);

  @Override
  public String name() {
    return "poison-message";
  }

  @Override
  public String description() {
    return "Corrupts a change record in flight between the source connector and the broker; the"
        + " job quarantines it in the dead-letter topic, the lab repairs and replays it";
  }

  @Override
  public Set<Class<? extends PipelineCapability>> requiredCapabilities() {
    return Set.of(
        JobControl.class,
        TableAccess.class,
        SourceConnectorControl.class,
        DeadLetterQueue.class,
        BrokerControl.class);
  }

  @Override
  public Set<String> changeCountParameters() {
    return Set.of(K);
  }

  @Override
  public Set<FaultPosition.Kind> supportedPositions() {
    return EnumSet.of(FaultPosition.Kind.NOW);
  }

  @Override
  public List<FaultVariant> variants() {
    return List.of(
        FaultVariant.standard(description()),
        FaultVariant.of(
                UNREPAIRED,
                "The corrupted record is quarantined but never repaired: the change it carried is"
                    + " lost to the tables")
            .with(REPAIR, "false")
            .expectedToDiverge(
                "control: a quarantined change that is never repaired is missing from the tables,"
                    + " so the changelog completeness check (and, unless a later change to the"
                    + " same key replaced it, the snapshot diff) must fail"));
  }

  @Override
  Map<String, String> parameters() {
    return Map.of(
        K,
        "which change record to corrupt, counted from injection (default " + DEFAULT_K + ")",
        REPAIR,
        "true (default) or false: replay a repair before the connector resumes");
  }

  @Override
  FaultHandle start(FaultContext context, PipelineView view) throws Exception {
    FaultSpec spec = context.spec();
    long k = positiveLong(spec, K, DEFAULT_K);
    boolean repair = Boolean.parseBoolean(choice(spec, REPAIR, "true", Set.of("true", "false")));
    SourceConnectorControl connector =
        context.pipeline().capability(SourceConnectorControl.class).orElseThrow();
    DeadLetterQueue dlq = context.pipeline().capability(DeadLetterQueue.class).orElseThrow();
    BrokerControl broker = context.pipeline().capability(BrokerControl.class).orElseThrow();
    Optional<JobControl> job = context.pipeline().capability(JobControl.class);
    TableAccess tables = view.tables().orElseThrow();

    Observation baseline = view.observe();
    Map<String, String> learnt = new ConcurrentHashMap<>();
    AtomicReference<@Nullable String> problem = new AtomicReference<>();
    AtomicReference<@Nullable Instant> done = new AtomicReference<>();
    AtomicReference<@Nullable CorruptedRecord> poisoned = new AtomicReference<>();
    // healing stops the driver this way and waits for it, so that only one of them starts the
    // connector (an interrupt could break a start half-way)
    AtomicBoolean cancelled = new AtomicBoolean();
    connector.corruptNext(k, spec.id());
    Runnable drive =
        () -> {
          long deadline = System.nanoTime() + context.timeout().toNanos();
          try {
            CorruptedRecord corrupted =
                await(
                    deadline,
                    cancelled,
                    () -> connector.corrupted(spec.id()),
                    "no record was corrupted");
            poisoned.set(corrupted);
            learnt.put("producer_metadata", where(corrupted));
            learnt.put("key", corrupted.key());
            learnt.put("value_sha256", corrupted.valueSha256());
            learnt.put("value_length", Integer.toString(corrupted.valueLength()));
            if (corrupted.eventId() != null) {
              learnt.put("event_id", Long.toString(corrupted.eventId()));
            }
            await(
                deadline,
                cancelled,
                () ->
                    "RUNNING".equals(connector.status())
                        ? Optional.empty()
                        : Optional.of(connector.status()),
                "the connector did not stop after the corrupted record");
            learnt.put("connector_status_during_injection", connector.status());
            PoisonReadPast readPast = new PoisonReadPast(broker, corrupted);
            AtomicReference<@Nullable String> failedOn = new AtomicReference<>();
            Optional<DlqRecord> copy =
                await(
                    deadline,
                    cancelled,
                    () -> {
                      Optional<DlqRecord> found = quarantinedCopyOf(dlq, corrupted);
                      if (found.isPresent()) {
                        return Optional.of(found);
                      }
                      // restarted and still no copy: the job failed on the record
                      failedOn.set(PoisonJobFailure.since(job, baseline.restartCount()));
                      if (failedOn.get() != null) {
                        return Optional.of(Optional.<DlqRecord>empty());
                      }
                      // read past and still no copy: the dead-letter sink flushes before the
                      // checkpoint that commits the offsets completes, so none is coming
                      return readPast.check() && quarantinedCopyOf(dlq, corrupted).isEmpty()
                          ? Optional.of(Optional.<DlqRecord>empty())
                          : Optional.empty();
                    },
                    "no dead-letter record for " + where(corrupted));
            if (copy.isEmpty()) {
              learnt.put("dlq_record", "none");
              String failure = failedOn.get();
              if (failure != null) {
                learnt.put("job_failed_on_poison", failure);
              } else {
                learnt.put("read_past_without_dead_letter", readPast.describe());
              }
              connector.start();
              learnt.put("connector_status_after_resume", connector.status());
              done.set(context.clock().instant());
              return;
            }
            DlqRecord quarantined = copy.get();
            learnt.put(
                "dlq_record",
                quarantined.topic() + "/" + quarantined.partition() + "@" + quarantined.offset());
            learnt.put("dlq_error_type", String.valueOf(quarantined.errorType()));
            if (repair) {
              DeadLetterQueue.Repair replayed = dlq.repair(quarantined);
              learnt.put("repair_outcome", replayed.reason()); // "repair" is the parameter
              if (!replayed.repaired()) {
                // resume before reporting: a refuted proof lets the caller heal at once
                connector.start();
                problem.set("the repair could not recover the change: " + replayed.reason());
                return;
              }
              learnt.put(
                  "repair_producer_metadata",
                  replayed.topic()
                      + "/"
                      + replayed.partition()
                      + "@"
                      + replayed.offset()
                      + " ts "
                      + replayed.timestampMs());
              Long repairedEvent =
                  corrupted.eventId() != null ? corrupted.eventId() : replayed.eventId();
              if (repairedEvent != null) {
                long eventId = repairedEvent;
                learnt.put("event_id", Long.toString(eventId));
                SnapshotInfo seenIn =
                    await(
                        deadline,
                        cancelled,
                        () -> changelogSnapshotHolding(tables, eventId),
                        "the repaired event " + eventId + " never reached the changelog table");
                learnt.put("repair_seen_in_changelog_snapshot", Long.toString(seenIn.snapshotId()));
                learnt.put("repair_converged_before_connector_resume", "true");
              }
              broker.observeLinkage("repair");
            }
            connector.start();
            learnt.put("connector_status_after_resume", connector.status());
            done.set(context.clock().instant());
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          } catch (Exception e) {
            String failure = e.getMessage() == null ? e.toString() : e.getMessage();
            // resume before reporting: a refuted proof lets the caller heal at once
            try {
              if (!"RUNNING".equals(connector.status())) {
                connector.start();
              }
            } catch (Exception restart) {
              failure += "; restarting the connector failed: " + restart;
            }
            problem.set(failure);
          }
        };
    Thread driver = new Thread(drive, "srl-" + spec.id() + "-poison");
    driver.setDaemon(true);
    driver.start();

    Map<String, String> details = new LinkedHashMap<>();
    details.put(K, Long.toString(k));
    details.put(REPAIR, Boolean.toString(repair));
    details.put(
        "mechanism",
        "the connector's k-th change record sent with value bytes 0xC3 0x28 + the original JSON"
            + " (invalid UTF-8), the connector stopped right after it");
    return ProvenFault.builder(context, view, baseline)
        .what("corrupts change record " + k + " in flight" + (repair ? ", then repairs it" : ""))
        .details(details)
        .proof(
            (before, now) -> {
              String failed = problem.get();
              if (failed != null) {
                return ProofVerdict.refuted(failed);
              }
              Instant finished = done.get();
              if (finished == null) {
                return ProofVerdict.pending(
                    learnt.containsKey("dlq_record")
                        ? "quarantined; repairing and resuming the connector"
                        : "waiting for the corrupted record and its dead-letter copy");
              }
              if (!now.jobId().equals(before.jobId())) {
                return ProofVerdict.refuted("the job was resubmitted, id " + now.jobId());
              }
              boolean failedOnPoison = learnt.containsKey("job_failed_on_poison");
              if (now.restartCount() != before.restartCount() && !failedOnPoison) {
                return ProofVerdict.refuted(
                    "the job restarted ("
                        + before.restartCount()
                        + " → "
                        + now.restartCount()
                        + "): a poison record must be quarantined, not fail the job");
              }
              // "exactly one" must still hold now: a copy written after the first was seen (an
              // at-least-once DLQ producer's retry, a re-read) would otherwise go unnoticed
              CorruptedRecord corrupted = poisoned.get();
              boolean dropped =
                  learnt.containsKey("read_past_without_dead_letter") || failedOnPoison;
              if (corrupted != null && !dropped) {
                try {
                  if (quarantinedCopyOf(dlq, corrupted).isEmpty()) {
                    return ProofVerdict.refuted(
                        "the dead-letter record for " + where(corrupted) + " is gone");
                  }
                } catch (IllegalStateException e) {
                  return ProofVerdict.refuted(String.valueOf(e.getMessage()));
                }
              }
              List<String> proofs = new ArrayList<>();
              proofs.add(
                  "change record "
                      + k
                      + " went to the broker corrupted at "
                      + learnt.get("producer_metadata")
                      + " (SHA-256 "
                      + learnt.get("value_sha256")
                      + ", "
                      + learnt.get("value_length")
                      + " bytes); the connector was "
                      + learnt.get("connector_status_during_injection"));
              if (failedOnPoison) {
                // the fault fired; the job cannot get past it, which its recovery shows
                proofs.add(
                    "the job failed on it instead of quarantining it ("
                        + learnt.get("job_failed_on_poison")
                        + "): it reads the record again at every restart");
              } else if (dropped) {
                // the fault fired; what the job did with it is for the checks to judge
                proofs.add(
                    "the job read past it without a dead-letter record ("
                        + learnt.get("read_past_without_dead_letter")
                        + "): the change it carried is lost to the tables, with nothing to"
                        + " repair it from");
              } else {
                proofs.add(
                    "exactly one dead-letter record for it, "
                        + learnt.get("dlq_record")
                        + ", error "
                        + learnt.get("dlq_error_type"));
              }
              if (!failedOnPoison) {
                proofs.add(
                    "the job kept running without a restart (restart count "
                        + now.restartCount()
                        + ")");
              }
              if (repair && !dropped) {
                String seenIn = learnt.get("repair_seen_in_changelog_snapshot");
                proofs.add(
                    "the repair was republished at "
                        + learnt.get("repair_producer_metadata")
                        + (seenIn != null
                            ? " and seen in changelog snapshot "
                                + seenIn
                                + " before the connector resumed"
                            : "; the corrupted record named no event id, so its arrival in the"
                                + " changelog was not awaited"));
              }
              proofs.add("the connector is " + learnt.get("connector_status_after_resume"));
              Map<String, String> all = new LinkedHashMap<>(learnt);
              newestCompleted(now.checkpoints())
                  .ifPresent(
                      checkpoint ->
                          all.put("checkpoint_after_poison", Long.toString(checkpoint.id())));
              return ProofVerdict.proven(finished, proofs, all);
            })
        .recoveryFrom(
            PoisonJobFailure.pastThePoison(
                () -> learnt.containsKey("job_failed_on_poison"),
                poisoned::get,
                broker,
                job,
                baseline.restartCount(),
                context.clock()))
        .healing(
            () -> {
              cancelled.set(true);
              driver.join(Math.max(1, context.timeout().toMillis()));
              if (!"RUNNING".equals(connector.status())) {
                connector.start();
              }
            })
        .build();
  }

  /** The dead-letter copy of a corrupted record; refuses more than one copy. */
  private static Optional<DlqRecord> quarantinedCopyOf(
      DeadLetterQueue dlq, CorruptedRecord corrupted) throws Exception {
    List<DlqRecord> copies =
        dlq.records().stream()
            .filter(
                record ->
                    record.originalTopic().equals(corrupted.topic())
                        && record.originalPartition() == corrupted.partition()
                        && record.originalOffset() == corrupted.offset())
            .toList();
    if (copies.size() > 1) {
      throw new IllegalStateException(
          copies.size() + " dead-letter records for " + where(corrupted) + "; expected exactly 1");
    }
    if (copies.size() == 1
        && !copies.get(0).originalValueSha256().equals(corrupted.valueSha256())) {
      throw new IllegalStateException(
          "the dead-letter record for "
              + where(corrupted)
              + " keeps bytes with SHA-256 "
              + copies.get(0).originalValueSha256()
              + ", not the corrupted record's "
              + corrupted.valueSha256());
    }
    return copies.stream().findFirst();
  }

  private static Optional<SnapshotInfo> changelogSnapshotHolding(TableAccess tables, long eventId)
      throws Exception {
    List<SnapshotInfo> snapshots = tables.snapshots(tables.changelogTable());
    if (snapshots.isEmpty()) {
      return Optional.empty();
    }
    SnapshotInfo latest = snapshots.get(snapshots.size() - 1);
    return tables.changelogContains(latest.snapshotId(), eventId)
        ? Optional.of(latest)
        : Optional.empty();
  }

  private static Optional<CheckpointInfo> newestCompleted(List<CheckpointInfo> checkpoints) {
    return checkpoints.stream().filter(CheckpointInfo::completed).reduce((first, second) -> second);
  }

  private static String where(CorruptedRecord record) {
    return record.topic()
        + "/"
        + record.partition()
        + "@"
        + record.offset()
        + " ts "
        + record.timestampMs();
  }

  /** A source of a value that may not be there yet. */
  private interface Poll<T> {
    Optional<T> next() throws Exception;
  }

  private static <T> T await(
      long deadlineNanos, AtomicBoolean cancelled, Poll<T> poll, String failure) throws Exception {
    while (true) {
      if (cancelled.get()) {
        throw new CancellationException("the fault was closed while waiting: " + failure + " yet");
      }
      Optional<T> value = poll.next();
      if (value.isPresent()) {
        return value.get();
      }
      if (System.nanoTime() > deadlineNanos) {
        throw new IllegalStateException(failure + " in time");
      }
      Thread.sleep(POLL.toMillis());
    }
  }
}
