package io.reliabilitylab.pipeline.flink;

import static org.assertj.core.api.Assertions.assertThat;

import io.reliabilitylab.pipeline.flink.cluster.FlinkCluster;
import io.reliabilitylab.pipeline.flink.job.OrdersJob;
import io.reliabilitylab.pipeline.flink.job.OrdersJobSettings;
import io.reliabilitylab.spi.data.DeliverySemantics;
import io.reliabilitylab.spi.pipeline.FaultPoints;
import io.reliabilitylab.spi.pipeline.JobControl;
import io.reliabilitylab.spi.pipeline.PipelineConfig;
import io.reliabilitylab.spi.pipeline.SavepointControl;
import io.reliabilitylab.spi.pipeline.SourceEndpoint;
import io.reliabilitylab.spi.pipeline.TableAccess;
import io.reliabilitylab.spi.pipeline.TaskManagerControl;
import io.reliabilitylab.spi.secret.Credentials;
import java.lang.reflect.Proxy;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.apache.flink.api.common.JobID;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A Flink pipeline offers {@link FaultPoints} only when its job was built with them and they can be
 * reached.
 */
class FlinkPipelineCapabilitiesTest {

  @TempDir Path directory;

  @Test
  void aJobWithoutFaultPointsDoesNotOfferThem() {
    try (FlinkPipeline pipeline = pipeline(false)) {
      assertThat(pipeline.capabilities())
          .doesNotContain(FaultPoints.class)
          .contains(JobControl.class, TableAccess.class, SavepointControl.class);
      assertThat(pipeline.capability(FaultPoints.class)).isEmpty();
    }
  }

  @Test
  void aSessionClusterOffersNoFaultPointsItCannotReach() {
    // its job's points run in the cluster's JVMs: without a fault channel whose round trip
    // succeeded, an armed point could never fire there
    try (FlinkPipeline pipeline = pipeline(true)) {
      assertThat(pipeline.available()).isNotEmpty();
      assertThat(pipeline.capabilities()).doesNotContain(FaultPoints.class);
      assertThat(pipeline.effectiveConfiguration().get("fault.channel")).startsWith("in-jvm");
    }
  }

  @Test
  void aSessionClusterOffersNoTaskManagerControl() {
    try (FlinkPipeline pipeline = pipeline(true)) {
      assertThat(pipeline.capabilities()).doesNotContain(TaskManagerControl.class);
    }
  }

  private FlinkPipeline pipeline(boolean faultPoints) {
    OrdersJobSettings settings =
        OrdersJobSettings.builder()
            .warehouse(directory.resolve("warehouse"))
            .checkpointDirectory(directory.resolve("checkpoints"))
            .faultPoints(faultPoints)
            .build();
    return new IdlePipeline(
        sessionCluster(),
        new IdleJob(settings),
        new PipelineConfig(
            new SourceEndpoint(
                "jdbc:mysql://127.0.0.1:3306/lab",
                "127.0.0.1",
                3306,
                "lab",
                "orders",
                Credentials.of("lab_cdc", "not-a-secret")),
            Map.of(),
            directory));
  }

  /** A session cluster that answers only its address: no call reaches a real cluster. */
  private static FlinkCluster sessionCluster() {
    return (FlinkCluster)
        Proxy.newProxyInstance(
            FlinkCluster.class.getClassLoader(),
            new Class<?>[] {FlinkCluster.class},
            (proxy, method, args) ->
                switch (method.getName()) {
                  case "restAddress" -> URI.create("http://127.0.0.1:1");
                  case "close" -> null;
                  default -> throw new UnsupportedOperationException(method.getName());
                });
  }

  private record IdleJob(OrdersJobSettings settings) implements OrdersJob {
    @Override
    public String name() {
      return "idle";
    }

    @Override
    public void build(StreamExecutionEnvironment environment) {
      throw new UnsupportedOperationException("never submitted");
    }

    @Override
    public OrdersJob withParallelism(int parallelism) {
      return this;
    }

    @Override
    public Map<String, String> effectiveConfiguration() {
      return settings.effectiveConfiguration();
    }
  }

  private static final class IdlePipeline extends FlinkPipeline {
    IdlePipeline(FlinkCluster cluster, OrdersJob job, PipelineConfig config) {
      super(cluster, job, new JobID(), config);
    }

    @Override
    public String name() {
      return "idle";
    }

    @Override
    public DeliverySemantics semantics() {
      return DeliverySemantics.EXACTLY_ONCE;
    }

    @Override
    protected void awaitSourceStreaming(Duration timeout) {}

    @Override
    protected Map<String, String> sourceVersions() {
      return Map.of();
    }
  }
}
