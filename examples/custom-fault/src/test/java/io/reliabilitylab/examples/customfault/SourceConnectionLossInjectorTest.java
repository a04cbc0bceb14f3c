package io.reliabilitylab.examples.customfault;

import static org.assertj.core.api.Assertions.assertThat;

import io.reliabilitylab.spi.data.DeliverySemantics;
import io.reliabilitylab.spi.fault.FaultContext;
import io.reliabilitylab.spi.fault.FaultEvidence;
import io.reliabilitylab.spi.fault.FaultHandle;
import io.reliabilitylab.spi.fault.FaultPosition;
import io.reliabilitylab.spi.fault.FaultSpec;
import io.reliabilitylab.spi.fault.FaultStatus;
import io.reliabilitylab.spi.pipeline.JobControl;
import io.reliabilitylab.spi.pipeline.PipelineUnderTest;
import io.reliabilitylab.spi.pipeline.SourceEndpoint;
import io.reliabilitylab.spi.pipeline.SourceEndpointAccess;
import io.reliabilitylab.spi.pipeline.TableAccess;
import io.reliabilitylab.spi.secret.Credentials;
import java.lang.reflect.Proxy;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Beyond the contract: the fault reaches the source only through the pipeline's endpoint. */
class SourceConnectionLossInjectorTest {

  @TempDir Path work;

  private static final FaultSpec SPEC =
      new FaultSpec(
          "srl-fault-1-" + SourceConnectionLossInjector.NAME,
          SourceConnectionLossInjector.NAME,
          new FaultPosition.Now(),
          Map.of());

  /**
   * A pipeline that runs a job and has tables but does not say where its source is: the fault
   * cannot reach the database, so it is skipped naming {@code SourceEndpointAccess}.
   */
  @Test
  void isSkippedOnAPipelineThatDoesNotSayWhereItsSourceIs() throws Exception {
    FaultContext context = context(pipeline(null));

    assertThat(context.source()).isEmpty();
    try (FaultHandle handle = new SourceConnectionLossInjector().inject(context)) {
      FaultEvidence evidence = handle.awaitFired(Duration.ofSeconds(1));
      assertThat(evidence.status()).isEqualTo(FaultStatus.SKIPPED);
      assertThat(evidence.reason()).contains("SourceEndpointAccess").doesNotContain("JobControl");
    }
  }

  /** A pipeline on another database cannot host the fault: skipped, naming its source. */
  @Test
  void isSkippedOnASourceThatIsNotMySqlOrMariaDb() throws Exception {
    SourceEndpoint postgres =
        new SourceEndpoint(
            "jdbc:postgresql://127.0.0.1:5432/lab",
            "127.0.0.1",
            5432,
            "lab",
            "orders",
            Credentials.of("cdc", "s3cret-pw"));

    try (FaultHandle handle =
        new SourceConnectionLossInjector().inject(context(pipeline(postgres)))) {
      FaultEvidence evidence = handle.awaitFired(Duration.ofSeconds(1));
      assertThat(evidence.status()).isEqualTo(FaultStatus.SKIPPED);
      assertThat(evidence.reason())
          .contains("MySQL or MariaDB only", "jdbc:postgresql://127.0.0.1:5432/lab")
          .doesNotContain("s3cret-pw");
    }
  }

  private FaultContext context(PipelineUnderTest pipeline) {
    return new FaultContext(pipeline, SPEC, Clock.systemUTC(), Duration.ofSeconds(5), work);
  }

  /**
   * Offers JobControl and TableAccess, and SourceEndpointAccess when {@code source} is given; the
   * fault skips before it calls any of their other methods.
   */
  private static PipelineUnderTest pipeline(@Nullable SourceEndpoint source) {
    Set<Class<?>> offered =
        source == null
            ? Set.of(JobControl.class, TableAccess.class)
            : Set.of(JobControl.class, TableAccess.class, SourceEndpointAccess.class);
    return (PipelineUnderTest)
        Proxy.newProxyInstance(
            SourceConnectionLossInjectorTest.class.getClassLoader(),
            new Class<?>[] {
              PipelineUnderTest.class,
              JobControl.class,
              TableAccess.class,
              SourceEndpointAccess.class
            },
            (proxy, method, args) ->
                switch (method.getName()) {
                  case "name" -> source == null ? "no-source" : "postgres-source";
                  case "sourceEndpoint" -> source;
                  case "semantics" -> DeliverySemantics.EXACTLY_ONCE;
                  case "capabilities" -> offered;
                  case "capability" ->
                      offered.contains((Class<?>) args[0]) ? Optional.of(proxy) : Optional.empty();
                  case "effectiveConfiguration", "stackVersions" -> Map.of();
                  case "close" -> null;
                  default -> throw new UnsupportedOperationException(method.getName());
                });
  }
}
