package io.reliabilitylab.faults;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import com.google.auto.service.AutoService;
import io.reliabilitylab.faults.WalSenders.Termination;
import io.reliabilitylab.faults.WalSenders.WalSender;
import io.reliabilitylab.kit.Observation;
import io.reliabilitylab.kit.PipelineView;
import io.reliabilitylab.kit.ProofRule;
import io.reliabilitylab.kit.ProofVerdict;
import io.reliabilitylab.kit.ProvenFault;
import io.reliabilitylab.kit.RecoveryStart;
import io.reliabilitylab.spi.fault.FaultContext;
import io.reliabilitylab.spi.fault.FaultHandle;
import io.reliabilitylab.spi.fault.FaultInjector;
import io.reliabilitylab.spi.fault.FaultPosition;
import io.reliabilitylab.spi.pipeline.JobControl;
import io.reliabilitylab.spi.pipeline.PipelineCapability;
import io.reliabilitylab.spi.pipeline.ReplicationSlotAccess;
import io.reliabilitylab.spi.pipeline.SourceEndpoint;
import io.reliabilitylab.spi.pipeline.SourceEndpointAccess;
import io.reliabilitylab.spi.pipeline.TableAccess;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeoutException;
import org.apiguardian.api.API;

/**
 * {@code walsender-terminated}: the PostgreSQL server terminates the backend of the walsender that
 * streams the pipeline's replication slot ({@code pg_terminate_backend}), as a DBA, a failover
 * script or an idle-session killer would, while the workload writes.
 *
 * <p>The fault lets the writes begin, waits until the WAL grew past where it was when armed (and,
 * where the account may see it, until the walsender sent past that), so that the stream is
 * mid-flight rather than idle, and terminates it as the slot's own account. Proof: the server
 * accepted the termination and the backend is gone from {@code pg_stat_activity}, with its pid, its
 * client, the slot, the LSN it had sent and the server's WAL end at the termination. Recovery
 * counts from the takeover ({@link RecoveryStart}): another walsender holds the slot, the job runs,
 * a checkpoint completes after that reconnect and the sink commits it.
 */
@API(status = EXPERIMENTAL)
@AutoService(FaultInjector.class)
public final class WalSenderTerminationInjector extends BuiltInFault {

  public static final String NAME = "walsender-terminated";

  private static final Duration POLL = Duration.ofMillis(50);

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public String description() {
    return "PostgreSQL terminates the walsender streaming the pipeline's replication slot"
        + " (pg_terminate_backend) while the workload writes; the connector must reconnect (or"
        + " the job restart) and resume from the slot without loss or duplicates";
  }

  @Override
  public Set<Class<? extends PipelineCapability>> requiredCapabilities() {
    // the slot names the walsender; the endpoint reaches the server; the job and the tables show
    // the recovery
    return Set.of(
        ReplicationSlotAccess.class,
        SourceEndpointAccess.class,
        JobControl.class,
        TableAccess.class);
  }

  @Override
  public Set<FaultPosition.Kind> supportedPositions() {
    return EnumSet.of(FaultPosition.Kind.NOW);
  }

  @Override
  Map<String, String> parameters() {
    return Map.of();
  }

  @Override
  FaultHandle start(FaultContext context, PipelineView view) throws Exception {
    SourceEndpoint source = context.source().orElseThrow();
    String slot =
        context.pipeline().capability(ReplicationSlotAccess.class).orElseThrow().replicationSlot();
    WalSenders walSenders = new WalSenders(source, slot);
    Observation baseline = view.observe();
    String armedAt = walSenders.walEnd();
    ProvenFault.Builder fault =
        ProvenFault.builder(context, view, baseline)
            .detail("source", source.jdbcUrl())
            .detail("user", source.user())
            .detail("slot", slot)
            .detail("wal_end_when_armed", armedAt)
            .healing(() -> {}); // the connector opens a new stream itself: nothing to heal
    // The writes begin now; the walsender is terminated once it sent a change written since.
    context.signalArmed();
    Optional<WalSender> streaming = awaitStreamingPast(walSenders, armedAt, context.timeout());
    if (streaming.isEmpty()) {
      return fault
          .what("terminated no walsender of slot " + slot)
          .proof(
              (before, now) ->
                  ProofVerdict.refuted(
                      "no walsender held slot "
                          + slot
                          + " while the WAL grew past "
                          + armedAt
                          + " within "
                          + context.timeout()))
          .build();
    }
    Termination termination = walSenders.terminate(streaming.get());
    Instant terminatedAt = context.clock().instant();
    WalSender victim = termination.walSender();
    return fault
        .what(
            "terminated walsender "
                + victim.pid()
                + " of slot "
                + slot
                + " on "
                + source.description())
        .detail("walsender_pid", Integer.toString(victim.pid()))
        .detail("walsender_client", victim.client())
        .detail(
            "walsender_sent_lsn",
            victim.sentLsn() != null
                ? victim.sentLsn()
                : "not visible to " + source.user() + " (needs pg_read_all_stats)")
        .detail("wal_end_at_termination", termination.walEnd())
        .detail("terminated_at", terminatedAt.toString())
        .proof(goneFromTheServer(walSenders, termination, terminatedAt, context.clock()))
        // a checkpoint completed before the connector noticed shows nothing of the new stream
        .recoveryFrom(successorOf(walSenders, victim.pid(), context.clock()))
        .build();
  }

  /**
   * Recovery starts when another walsender holds the slot: the connector reconnected, or the
   * restarted job's source did.
   */
  private static RecoveryStart successorOf(WalSenders walSenders, int terminatedPid, Clock clock) {
    return (terminatedAt, timeout) -> {
      long deadline = System.nanoTime() + timeout.toNanos();
      String problem = "";
      while (System.nanoTime() - deadline < 0) {
        try {
          Optional<WalSender> current = walSenders.current();
          if (current.isPresent() && current.get().pid() != terminatedPid) {
            Instant reconnectedAt = clock.instant();
            return new RecoveryStart.Moment(
                reconnectedAt,
                Map.of(
                    "new_walsender_pid", Integer.toString(current.get().pid()),
                    "new_walsender_client", current.get().client(),
                    "reconnected_at", reconnectedAt.toString(),
                    "reconnected_after_ms",
                        Long.toString(Duration.between(terminatedAt, reconnectedAt).toMillis())));
          }
        } catch (SQLException e) {
          problem = "; the last look failed: " + e.getMessage();
        }
        Thread.sleep(POLL.toMillis());
      }
      throw new TimeoutException(
          "no walsender took slot "
              + walSenders.slot()
              + " over from terminated pid "
              + terminatedPid
              + " within "
              + timeout
              + problem);
    };
  }

  /**
   * The walsender of the slot once the workload's WAL grew past {@code lsn} (and, where visible,
   * the walsender sent past it); empty after {@code timeout}.
   */
  private static Optional<WalSender> awaitStreamingPast(
      WalSenders walSenders, String lsn, Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (System.nanoTime() - deadline < 0) {
      try {
        Optional<WalSender> current = walSenders.current();
        if (current.isPresent() && walSenders.streamingPast(current.get(), lsn)) {
          return current;
        }
      } catch (SQLException busy) {
        // the server may refuse a connection for a moment under load: look again
      }
      Thread.sleep(20);
    }
    return Optional.empty();
  }

  /**
   * Proven once the server accepted the termination and the backend is gone from {@code
   * pg_stat_activity}: what the server shows, not merely that the call returned.
   */
  private static ProofRule goneFromTheServer(
      WalSenders walSenders, Termination termination, Instant terminatedAt, Clock clock) {
    int pid = termination.walSender().pid();
    return (baseline, now) -> {
      if (!termination.accepted()) {
        return ProofVerdict.refuted(
            "pg_terminate_backend(" + pid + ") returned false: the backend was already gone");
      }
      if (walSenders.listed(pid)) {
        return ProofVerdict.pending("walsender " + pid + " is still in pg_stat_activity");
      }
      Instant goneAt = clock.instant();
      return ProofVerdict.proven(
          terminatedAt,
          List.of(
              "pg_terminate_backend(%d) returned true at %s: the walsender of slot %s serving %s,"
                      .formatted(
                          pid, terminatedAt, walSenders.slot(), termination.walSender().client())
                  + " the WAL ending at %s".formatted(termination.walEnd()),
              "backend %d no longer in pg_stat_activity at %s".formatted(pid, goneAt)),
          Map.of("gone_at", goneAt.toString()));
    };
  }
}
