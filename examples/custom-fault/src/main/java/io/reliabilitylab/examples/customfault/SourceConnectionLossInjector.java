package io.reliabilitylab.examples.customfault;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import com.google.auto.service.AutoService;
import io.reliabilitylab.examples.customfault.BinlogConnections.Kill;
import io.reliabilitylab.examples.customfault.BinlogConnections.ServerThread;
import io.reliabilitylab.kit.CapabilityCheck;
import io.reliabilitylab.kit.ProofRule;
import io.reliabilitylab.kit.ProofVerdict;
import io.reliabilitylab.kit.ProvenFault;
import io.reliabilitylab.kit.RecoveryStart;
import io.reliabilitylab.kit.SkippedFault;
import io.reliabilitylab.spi.fault.FaultContext;
import io.reliabilitylab.spi.fault.FaultHandle;
import io.reliabilitylab.spi.fault.FaultInjector;
import io.reliabilitylab.spi.fault.FaultPosition;
import io.reliabilitylab.spi.pipeline.JobControl;
import io.reliabilitylab.spi.pipeline.PipelineCapability;
import io.reliabilitylab.spi.pipeline.SourceEndpoint;
import io.reliabilitylab.spi.pipeline.SourceEndpointAccess;
import io.reliabilitylab.spi.pipeline.TableAccess;
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
 * {@code binlog-connection-kill}: the source database drops the CDC connector's binlog connection,
 * as a database failover, a network cut or a DBA's {@code KILL} would.
 *
 * <p>The fault connects to the MySQL or MariaDB source over JDBC, finds the {@code Binlog Dump}
 * connection of the CDC account in {@code information_schema.PROCESSLIST} and kills it. An account
 * may kill its own connections, so the CDC account itself is enough. Proof: the connection gone
 * from the process list after the kill, with the killed connection id, the time of the kill and the
 * server's binlog position right after it. Recovery counts from a new binlog connection of the same
 * account ({@link RecoveryStart}) (the connector reconnected, or the job restarted and its source
 * connected again), the job running, a checkpoint completed after the reconnect and a sink commit
 * after that.
 *
 * <p>It is built on the plugin kit ({@code reliability-lab-plugin-kit}): {@link CapabilityCheck}
 * skips it on a pipeline that lacks what it needs, and a {@link ProvenFault} polls its {@link
 * ProofRule}, keeps the evidence and heals.
 *
 * <p>Where the source is and the account to connect as come from the pipeline ({@link
 * FaultContext#source()}, which a pipeline offering {@link SourceEndpointAccess} fills): the fault
 * takes no address and no password as parameters, since a fault spec is written into the run
 * record. A MySQL or MariaDB JDBC driver must be on the class path (the lab's harness brings one).
 */
// region registration
@API(status = EXPERIMENTAL)
@AutoService(FaultInjector.class)
public final class SourceConnectionLossInjector implements FaultInjector {

  /** The fault's name, as {@code --faults} and {@code PlannedFault} take it. */
  public static final String NAME = "binlog-connection-kill";

  // endregion

  /** A public no-argument constructor, as {@link java.util.ServiceLoader} needs. */
  public SourceConnectionLossInjector() {}

  // region naming
  @Override
  public String name() {
    return NAME;
  }

  @Override
  public String description() {
    return "The source database kills the CDC connector's binlog connection; the connector must"
        + " reconnect (or the job restart) and resume without loss or duplicates";
  }

  @Override
  public Set<Class<? extends PipelineCapability>> requiredCapabilities() {
    // SourceEndpointAccess says where the source is; JobControl proves the job runs and checkpoints
    // again, TableAccess that the sink commits.
    return Set.of(SourceEndpointAccess.class, JobControl.class, TableAccess.class);
  }

  @Override
  public Set<FaultPosition.Kind> supportedPositions() {
    return EnumSet.of(FaultPosition.Kind.NOW, FaultPosition.Kind.AT_CHECKPOINT);
  }

  // endregion

  // region inject
  @Override
  public FaultHandle inject(FaultContext context) throws Exception {
    // Never "fired" where the source is unknown or recovery cannot be shown: skipped, naming why.
    Optional<FaultHandle> skipped = CapabilityCheck.skipIfMissing(this, context);
    if (skipped.isPresent()) {
      return skipped.get();
    }
    FaultPosition position = context.spec().position();
    if (!supportedPositions().contains(position.kind())) {
      throw new IllegalArgumentException(
          "Fault '" + NAME + "' fires now or at-checkpoint:N, not at " + position.text());
    }
    SourceEndpoint source = context.source().orElseThrow();
    if (!source.jdbcUrl().startsWith("jdbc:mysql:")
        && !source.jdbcUrl().startsWith("jdbc:mariadb:")) {
      // a pipeline on another database cannot host this fault: skipped, never "fired"
      return SkippedFault.because(
          context, "fault '" + NAME + "' reaches MySQL or MariaDB only, not " + source.jdbcUrl());
    }
    ProvenFault.Builder fault =
        ProvenFault.builder(context) // takes the baseline: before anything changes
            .detail("source", source.jdbcUrl())
            .detail("user", source.user())
            .detail("position", position.text());
    BinlogConnections connections = new BinlogConnections(source);
    JobControl job = fault.view().job();
    List<ServerThread> victims;
    try {
      victims =
          Waiting.until(
              "binlog connection of '" + source.user() + "' to kill at " + position.text(),
              context.timeout(),
              () ->
                  reached(position, job)
                      ? Optional.of(connections.dumpThreads()).filter(found -> !found.isEmpty())
                      : Optional.empty());
    } catch (TimeoutException e) {
      // nothing was killed: the fault is not proven, and the evidence says why
      return fault
          .what("killed no binlog connection of '" + source.user() + "'")
          .proof((baseline, now) -> ProofVerdict.refuted(e.getMessage()))
          .build();
    }
    Kill kill = connections.kill(victims, context.clock());
    fault
        .what("killed the CDC connector's binlog connection on " + source.jdbcUrl())
        .detail("killed_connection_id", Long.toString(kill.ids().get(0)))
        .detail("killed_connection_ids", kill.idText())
        .detail("killed_connection_client", victims.get(0).client())
        .detail("killed_at", kill.at().toString());
    kill.binlogEnd()
        .ifPresent(
            end ->
                fault.detail("binlog_file", end.file()).detail("binlog_offset", "" + end.offset()));
    return fault
        .proof(goneFromTheProcessList(connections, kill, context.clock()))
        // The server cannot give a killed connection back, and the connector opens a new one
        // itself: nothing to heal. A fault that breaks something lasting undoes it here, once.
        .healing(() -> {})
        .recoveryFrom(reconnectAfter(connections, kill.ids(), context.clock()))
        .build();
  }

  // endregion

  // region recovery
  /**
   * Recovery starts with a new binlog connection of the account (the connector reconnected, or the
   * restarted job's reader connected); the kit then awaits a checkpoint completed after it and a
   * sink commit of that checkpoint or a later one.
   */
  private static RecoveryStart reconnectAfter(
      BinlogConnections connections, List<Long> killed, Clock clock) {
    return (killedAt, timeout) -> {
      ServerThread reconnected =
          Waiting.until(
              "new binlog connection on the source",
              timeout,
              () ->
                  connections.dumpThreads().stream()
                      .filter(t -> !killed.contains(t.id()))
                      .findFirst());
      Instant reconnectedAt = clock.instant();
      return new RecoveryStart.Moment(
          reconnectedAt,
          Map.of(
              "reconnected_connection_id", Long.toString(reconnected.id()),
              "reconnected_connection_client", reconnected.client(),
              "reconnected_at", reconnectedAt.toString(),
              "reconnected_after_ms",
                  Long.toString(Duration.between(killedAt, reconnectedAt).toMillis())));
    };
  }

  // endregion

  /** Now, or once checkpoint N completed for {@code at-checkpoint:N}. */
  private static boolean reached(FaultPosition position, JobControl job) {
    return !(position instanceof FaultPosition.AtCheckpoint at)
        || job.checkpoints().stream().anyMatch(c -> c.completed() && c.id() >= at.checkpoint());
  }

  // region proof
  /**
   * Proven once the killed connections are gone from the server's process list: what the server
   * shows, not merely that {@code KILL} returned.
   */
  private static ProofRule goneFromTheProcessList(
      BinlogConnections connections, Kill kill, Clock clock) {
    return (baseline, now) -> {
      if (connections.anyListed(kill.ids())) {
        return ProofVerdict.pending("connection " + kill.idText() + " is still listed after KILL");
      }
      Instant goneAt = clock.instant();
      String binlogEnd = kill.binlogEnd().map(end -> ", the binlog ending at " + end).orElse("");
      return ProofVerdict.proven(
          kill.at(),
          List.of(
              "KILL CONNECTION %s succeeded at %s%s: the Binlog Dump connection from %s"
                  .formatted(kill.idText(), kill.at(), binlogEnd, kill.victims().get(0).client()),
              "connection %s no longer in information_schema.PROCESSLIST at %s (%d ms later)"
                  .formatted(
                      kill.idText(), goneAt, Duration.between(kill.at(), goneAt).toMillis())),
          Map.of("gone_at", goneAt.toString()));
    };
  }

  // endregion
}
