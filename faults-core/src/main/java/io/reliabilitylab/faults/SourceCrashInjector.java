package io.reliabilitylab.faults;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import com.google.auto.service.AutoService;
import io.reliabilitylab.kit.Observation;
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
import io.reliabilitylab.spi.pipeline.SourceProcessControl;
import io.reliabilitylab.spi.pipeline.TableAccess;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apiguardian.api.API;

/**
 * {@code source-crash}: the source database's server process is killed with SIGKILL while the
 * workload writes, stays down for {@code down-ms}, and is started again on the same data directory
 * and port, its binlog kept, as after an OOM kill and an init system's restart. The writer's commit
 * in flight is judged by what the restarted database holds (the oracle follows the database, not
 * the intent); the connector must reconnect and resume where it was.
 *
 * <p>Proof: the killed process is gone, another process serves the port, and the server says it
 * started after the kill (its uptime). Recovery counts from the moment the connector's change-log
 * reader is connected to the restarted server (a binlog dump of the capture account).
 */
@API(status = EXPERIMENTAL)
@AutoService(FaultInjector.class)
public final class SourceCrashInjector extends BuiltInFault {

  public static final String NAME = "source-crash";

  static final String DOWN_MS = "down-ms";
  static final long DEFAULT_DOWN_MS = 1_000;

  /**
   * How long the kill waits for the workload's writes to reach the server's change log, so that it
   * lands mid-stream; a source that shows none by then is killed anyway, and the record says so.
   */
  private static final Duration WRITES_TIMEOUT = Duration.ofSeconds(5);

  private static final Duration POLL = Duration.ofMillis(50);

  private static final Duration KILL_TIMEOUT = Duration.ofSeconds(10);

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public String description() {
    return "the source database's server is killed with SIGKILL while the workload writes and"
        + " started again on the same data: the connector must reconnect and resume without loss"
        + " or duplicates";
  }

  @Override
  public Set<Class<? extends PipelineCapability>> requiredCapabilities() {
    // the lab runs the server; the endpoint shows the restarted server and the reconnection
    return Set.of(
        SourceProcessControl.class,
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
    return Map.of(
        DOWN_MS,
        "how long the server stays down, in milliseconds (default " + DEFAULT_DOWN_MS + ")");
  }

  @Override
  FaultHandle start(FaultContext context, PipelineView view) throws Exception {
    SourceProcessControl server =
        context.pipeline().capability(SourceProcessControl.class).orElseThrow();
    SourceEndpoint source = context.source().orElseThrow();
    Duration down = Duration.ofMillis(positiveLong(context.spec(), DOWN_MS, DEFAULT_DOWN_MS));
    Clock clock = context.clock();
    ServerSessions sessions = new ServerSessions(source);

    Observation baseline = view.observe();
    long killedPid = server.serverPid();
    ProvenFault.Builder fault =
        ProvenFault.builder(context, view, baseline)
            .detail("server", server.serverDescription())
            .detail("killed_pid", Long.toString(killedPid))
            .detail("down_ms", Long.toString(down.toMillis()))
            // a server left down by a failure in between is started again
            .healing(
                () -> {
                  if (!ServerSessions.alive(server.serverPid())) {
                    server.restart();
                  }
                });
    Optional<String> armedAt = sessions.logPosition();
    context.signalArmed();
    Optional<String> beforeKill = awaitWrites(sessions, armedAt);
    server.kill(KILL_TIMEOUT);
    Instant killedAt = clock.instant();
    Thread.sleep(down.toMillis());
    long newPid = server.restart();
    Instant restartedAt = clock.instant();
    Map<String, String> details = new LinkedHashMap<>();
    details.put("log_position_at_arming", armedAt.orElse("unknown"));
    details.put("log_position_before_kill", beforeKill.orElse("unknown"));
    details.put(
        "writes_before_kill", Boolean.toString(armedAt.isPresent() && !armedAt.equals(beforeKill)));
    details.put("killed_at", killedAt.toString());
    details.put("restarted_at", restartedAt.toString());
    details.put("new_pid", Long.toString(newPid));
    return fault
        .what(
            "killed the source server "
                + server.serverDescription()
                + " (pid "
                + killedPid
                + ") with SIGKILL and started it again after "
                + down.toMillis()
                + " ms (pid "
                + newPid
                + ")")
        .details(details)
        .proof(restarted(sessions, killedPid, newPid, killedAt, restartedAt))
        // the restarted server has no reader but the reconnected one
        .recoveryFrom(sessions.readerReconnected(null, clock))
        .build();
  }

  /**
   * Waits until the server's change log moved past {@code armedAt} (the workload writes), up to
   * {@link #WRITES_TIMEOUT}; returns where it ended then.
   */
  private static Optional<String> awaitWrites(ServerSessions sessions, Optional<String> armedAt)
      throws InterruptedException {
    long deadline = System.nanoTime() + WRITES_TIMEOUT.toNanos();
    Optional<String> now = sessions.logPosition();
    while (armedAt.isPresent() && armedAt.equals(now) && System.nanoTime() - deadline < 0) {
      Thread.sleep(POLL.toMillis());
      now = sessions.logPosition();
    }
    return now;
  }

  /**
   * Proven when the killed process is gone, another serves, and the server's own uptime says it
   * started after the kill.
   */
  private static ProofRule restarted(
      ServerSessions sessions, long killedPid, long newPid, Instant killedAt, Instant restartedAt) {
    return (baseline, now) -> {
      if (ServerSessions.alive(killedPid)) {
        return ProofVerdict.refuted("the killed server process " + killedPid + " still runs");
      }
      if (newPid == killedPid || !ServerSessions.alive(newPid)) {
        return ProofVerdict.refuted("no new server process runs (pid " + newPid + ")");
      }
      Optional<Duration> uptime = sessions.uptime();
      if (uptime.isEmpty()) {
        return ProofVerdict.pending("the restarted server does not answer yet");
      }
      Instant startedAt = now.at().minus(uptime.get());
      // the server counts whole seconds: allow one
      if (startedAt.isBefore(killedAt.minusSeconds(1))) {
        return ProofVerdict.refuted(
            "the server's uptime (" + uptime.get() + ") says it started before the kill");
      }
      return ProofVerdict.proven(
          killedAt,
          List.of(
              "process " + killedPid + " killed with SIGKILL at " + killedAt + ", gone since",
              "process "
                  + newPid
                  + " started on the same data at "
                  + restartedAt
                  + "; the server reports an uptime of "
                  + uptime.get().toSeconds()
                  + " s"),
          Map.of("server_uptime_s", Long.toString(uptime.get().toSeconds())));
    };
  }
}
