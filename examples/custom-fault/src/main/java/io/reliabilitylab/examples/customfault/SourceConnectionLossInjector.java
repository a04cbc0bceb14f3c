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
 * <p>Where the source is: the parameters {@value #JDBC_URL} and {@value #USER}, or else the
 * pipeline's effective configuration ({@code source.jdbc-url} or {@code source} as {@code
 * host:port/database}, and {@code source.user}). The password is never a parameter, since a fault
 * spec is written into the run record: it is read from the system property {@value
 * #PASSWORD_SYSTEM_PROPERTY} or else the environment variable {@value
 * #PASSWORD_ENVIRONMENT_VARIABLE}, and never logged or recorded. A MySQL or MariaDB JDBC driver
 * must be on the class path (the lab's harness brings one).
 */
// region registration
@API(status = EXPERIMENTAL)
@AutoService(FaultInjector.class)
public final class SourceConnectionLossInjector implements FaultInjector {

  /** The fault's name, as {@code --faults} and {@code PlannedFault} take it. */
  public static final String NAME = "source-connection-loss";

  // endregion

  /** Parameter: the source's JDBC URL without credentials, e.g. {@code jdbc:mysql://db:3306/x}. */
  public static final String JDBC_URL = "jdbc-url";

  /** Parameter: the account to connect as; default the pipeline's {@code source.user}. */
  public static final String USER = "user";

  /** Where the password of that account is read from first: set on purpose for this JVM. */
  public static final String PASSWORD_SYSTEM_PROPERTY = "srl.source.password";

  /** Where it is read from when that system property is not set. */
  public static final String PASSWORD_ENVIRONMENT_VARIABLE = "SRL_SOURCE_PASSWORD";

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
    // JobControl proves the job runs and checkpoints again, TableAccess that the sink commits.
    return Set.of(JobControl.class, TableAccess.class);
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
      // Never "fired" on a pipeline that cannot show recovery: skipped, naming what is missing.
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
    SourceEndpoint endpoint =
        SourceEndpoint.resolve(
            spec,
            pipeline.name(),
            pipeline.effectiveConfiguration(),
            System::getenv,
            System::getProperty);
    return SourceConnectionLoss.start(
        context,
        endpoint,
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
