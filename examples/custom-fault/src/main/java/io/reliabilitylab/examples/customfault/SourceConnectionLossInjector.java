package io.reliabilitylab.examples.customfault;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import com.google.auto.service.AutoService;
import io.reliabilitylab.spi.fault.FaultContext;
import io.reliabilitylab.spi.fault.FaultEvidence;
import io.reliabilitylab.spi.fault.FaultHandle;
import io.reliabilitylab.spi.fault.FaultInjector;
import io.reliabilitylab.spi.fault.FaultPosition;
import io.reliabilitylab.spi.fault.FaultSpec;
import io.reliabilitylab.spi.fault.RecoveryEvidence;
import io.reliabilitylab.spi.pipeline.JobControl;
import io.reliabilitylab.spi.pipeline.PipelineCapability;
import io.reliabilitylab.spi.pipeline.PipelineUnderTest;
import io.reliabilitylab.spi.pipeline.SourceEndpoint;
import io.reliabilitylab.spi.pipeline.SourceEndpointAccess;
import io.reliabilitylab.spi.pipeline.TableAccess;
import java.time.Duration;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.apiguardian.api.API;

/**
 * {@code source-connection-loss}: the source database drops the CDC connector's binlog connection,
 * as a database failover, a network cut or a DBA's {@code KILL} would.
 *
 * <p>The fault connects to the MySQL or MariaDB source over JDBC, finds the {@code Binlog Dump}
 * connection of the CDC account in {@code information_schema.PROCESSLIST} and kills it. An account
 * may kill its own connections, so the CDC account itself is enough. Proof: the killed connection
 * id, the server's binlog position and the time of the kill, and the connection gone from the
 * process list. Recovery: a new binlog connection of the same account (the connector reconnected,
 * or the job restarted and its source connected again), the job running, a checkpoint completed
 * after the reconnect and a sink commit after the fault.
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
  public static final String NAME = "source-connection-loss";

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
  public FaultHandle inject(FaultContext context) {
    Objects.requireNonNull(context, "context");
    FaultSpec spec = context.spec();
    PipelineUnderTest pipeline = context.pipeline();
    Set<String> missing =
        requiredCapabilities().stream()
            .filter(type -> pipeline.capability(type).isEmpty())
            .map(Class::getSimpleName)
            .collect(Collectors.toCollection(TreeSet::new));
    if (!missing.isEmpty()) {
      // Never "fired" where the source is unknown or recovery cannot be shown: skipped, naming why.
      return new Skipped(
          FaultEvidence.skipped(
              spec,
              context.clock().instant(),
              "pipeline '" + pipeline.name() + "' lacks " + String.join(", ", missing)));
    }
    if (!supportedPositions().contains(spec.position().kind())) {
      throw new IllegalArgumentException(
          "Fault '" + NAME + "' fires now or at-checkpoint:N, not at " + spec.position().text());
    }
    SourceEndpoint source = context.source().orElseThrow();
    if (!source.jdbcUrl().startsWith("jdbc:mysql:")
        && !source.jdbcUrl().startsWith("jdbc:mariadb:")) {
      throw new IllegalArgumentException(
          "Fault '" + NAME + "' reaches MySQL or MariaDB only, not " + source.jdbcUrl());
    }
    return SourceConnectionLoss.start(
        context,
        source,
        pipeline.capability(JobControl.class).orElseThrow(),
        pipeline.capability(TableAccess.class).orElseThrow());
  }

  // endregion

  /** The handle of a fault that was not injected: it never fires and has nothing to heal. */
  private record Skipped(FaultEvidence evidence) implements FaultHandle {

    @Override
    public FaultEvidence awaitFired(Duration timeout) {
      return evidence;
    }

    @Override
    public RecoveryEvidence awaitRecovery(Duration timeout) {
      throw new IllegalStateException(
          "Fault " + evidence.faultId() + " was skipped (" + evidence.reason() + ")");
    }

    @Override
    public void close() {}
  }
}
