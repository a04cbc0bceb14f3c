package io.reliabilitylab.faults;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import com.google.auto.service.AutoService;
import io.reliabilitylab.kit.PipelineView;
import io.reliabilitylab.kit.ProofRule;
import io.reliabilitylab.kit.ProofVerdict;
import io.reliabilitylab.kit.ProvenFault;
import io.reliabilitylab.spi.fault.FaultContext;
import io.reliabilitylab.spi.fault.FaultHandle;
import io.reliabilitylab.spi.fault.FaultInjector;
import io.reliabilitylab.spi.fault.FaultPosition;
import io.reliabilitylab.spi.pipeline.JobControl;
import io.reliabilitylab.spi.pipeline.PipelineCapability;
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
import org.apiguardian.api.API;

/**
 * {@code source-connection-loss}: the source database drops the connector's change-log connection
 * while the workload writes, as a failover script, an idle-session killer or a DBA would: {@code
 * KILL} of the capture account's binlog dump on MySQL/MariaDB, {@code pg_terminate_backend} of its
 * walsender on PostgreSQL. An account may end its own sessions, so the capture account suffices.
 *
 * <p>Proof: the server accepted the kill and the connection is gone from its session list. Recovery
 * counts from a new change-log connection of the account (the connector reconnected, or the
 * restarted job's source did).
 */
@API(status = EXPERIMENTAL)
@AutoService(FaultInjector.class)
public final class SourceConnectionLossInjector extends BuiltInFault {

  public static final String NAME = "source-connection-loss";

  private static final Duration POLL = Duration.ofMillis(50);

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public String description() {
    return "the source database kills the connector's change-log connection (binlog dump or"
        + " walsender) while the workload writes; the connector must reconnect and resume";
  }

  @Override
  public Set<Class<? extends PipelineCapability>> requiredCapabilities() {
    return Set.of(SourceEndpointAccess.class, JobControl.class, TableAccess.class);
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
    ServerSessions sessions = new ServerSessions(source);
    Clock clock = context.clock();
    ProvenFault.Builder fault =
        ProvenFault.builder(context, view, view.observe())
            .detail("source", source.jdbcUrl())
            .detail("user", source.user())
            .healing(() -> {}); // the connector reconnects itself: nothing to heal
    context.signalArmed();
    Optional<Long> reader = awaitReader(sessions, context.timeout());
    if (reader.isEmpty()) {
      return fault
          .what("killed no change-log connection of " + source.user())
          .proof(
              (baseline, now) ->
                  ProofVerdict.refuted(
                      "no change-log connection of "
                          + source.user()
                          + " on "
                          + source.description()
                          + " within "
                          + context.timeout()))
          .build();
    }
    long victim = reader.get();
    boolean accepted = sessions.kill(victim);
    Instant killedAt = clock.instant();
    return fault
        .what(
            "killed the change-log connection "
                + victim
                + " of "
                + source.user()
                + " on "
                + source.description())
        .detail("killed_connection_id", Long.toString(victim))
        .detail("killed_at", killedAt.toString())
        .proof(gone(sessions, victim, accepted, killedAt))
        .recoveryFrom(sessions.readerReconnected(victim, clock))
        .build();
  }

  private static Optional<Long> awaitReader(ServerSessions sessions, Duration timeout)
      throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (System.nanoTime() - deadline < 0) {
      try {
        Optional<Long> reader = sessions.changeLogReader();
        if (reader.isPresent()) {
          return reader;
        }
      } catch (SQLException busy) {
        // look again
      }
      Thread.sleep(POLL.toMillis());
    }
    return Optional.empty();
  }

  /** Proven once the server accepted the kill and no longer lists the connection. */
  private static ProofRule gone(
      ServerSessions sessions, long victim, boolean accepted, Instant killedAt) {
    return (baseline, now) -> {
      if (!accepted) {
        return ProofVerdict.refuted("the server refused to end connection " + victim);
      }
      if (sessions.listed(victim)) {
        return ProofVerdict.pending("connection " + victim + " is still listed");
      }
      return ProofVerdict.proven(
          killedAt,
          List.of(
              "the server ended change-log connection " + victim + " at " + killedAt,
              "connection " + victim + " no longer listed at " + now.at()),
          Map.of());
    };
  }
}
