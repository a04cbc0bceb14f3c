package io.reliabilitylab.pipeline.direct.ownjob;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.reliabilitylab.checks.iceberg.SinkCatalog;
import io.reliabilitylab.pipeline.direct.DirectPipelineProvider;
import io.reliabilitylab.pipeline.direct.job.DirectJobConfig;
import io.reliabilitylab.pipeline.flink.envelope.ChangeEnvelope;
import io.reliabilitylab.runner.FaultSelection;
import io.reliabilitylab.runner.discovery.Discovered;
import io.reliabilitylab.spi.fault.FaultInjector;
import io.reliabilitylab.spi.pipeline.FaultPoints;
import io.reliabilitylab.spi.pipeline.JobControl;
import io.reliabilitylab.spi.pipeline.PipelineConfig;
import io.reliabilitylab.spi.pipeline.PipelineProvider;
import io.reliabilitylab.spi.pipeline.SavepointControl;
import io.reliabilitylab.spi.pipeline.SnapshotSplits;
import io.reliabilitylab.spi.pipeline.SourceEndpoint;
import io.reliabilitylab.spi.pipeline.TableAccess;
import io.reliabilitylab.spi.pipeline.TaskManagerControl;
import io.reliabilitylab.spi.secret.Credentials;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;
import org.apache.flink.streaming.api.graph.StreamNode;
import org.apache.iceberg.catalog.TableIdentifier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class OwnJobPipelinesTest {

  private static final TeamTopology REFERENCE_SINKS =
      (env, changes, sinks) -> sinks.writeReferenceSinks(changes);

  @TempDir Path directory;

  @Test
  void offersEveryCapabilityOfTheDirectPipelineButFaultPoints() {
    PipelineProvider provider = OwnJobPipelines.provider("orders-enricher", REFERENCE_SINKS);

    assertThat(provider.name()).isEqualTo("orders-enricher");
    assertThat(provider.capabilities())
        .doesNotContain(FaultPoints.class)
        .contains(
            JobControl.class, TableAccess.class, SavepointControl.class, TaskManagerControl.class);
    Set<Object> direct = Set.copyOf(new DirectPipelineProvider().capabilities());
    assertThat(direct).contains(FaultPoints.class, SnapshotSplits.class);
    // nor the reference source's snapshot chunks: a team's job may read the source itself
    assertThat(provider.capabilities()).doesNotContain(SnapshotSplits.class);
    assertThat(provider.capabilities()).hasSize(direct.size() - 2);
    assertThat(provider.requiredOptions())
        .isEqualTo(new DirectPipelineProvider().requiredOptions());
  }

  @Test
  void refusesTheReferenceJobsTransactionAlignmentBeforeStartingAnything() {
    PipelineProvider provider = OwnJobPipelines.provider("orders-enricher", REFERENCE_SINKS);
    PipelineConfig aligned =
        new PipelineConfig(
            config().source(), Map.of("job.transactions", "aligned"), directory.resolve("work"));

    assertThatThrownBy(() -> provider.start(aligned))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "job.transactions=aligned is the reference job's; pipeline orders-enricher runs the"
                + " team's job as it is: drop the option");
  }

  /** What the Javadoc of {@link OwnJobPipelines} promises {@code --faults all} picks. */
  @Test
  void allFaultsMeansThoseThatNeedNoFaultPoint() {
    List<FaultInjector> discovered =
        Discovered.faults(getClass().getClassLoader()).requireNoProblems().all();
    PipelineProvider provider = OwnJobPipelines.provider("orders-enricher", REFERENCE_SINKS);

    Set<String> picked =
        FaultSelection.parse("all", discovered, provider.capabilities()).stream()
            .map(choice -> choice.fault().name())
            .collect(Collectors.toSet());

    // the network faults need the proxied source link, which a team's job has too;
    // coordinator-failure: losing the cluster needs no fault point; its enumerator mode, which
    // does, is picked with it and skipped naming FaultPoints, as task-failure:snapshot-phase is
    assertThat(picked)
        .containsExactlyInAnyOrder(
            "savepoint-restore",
            "task-failure",
            "coordinator-failure",
            "network-partition",
            "network-latency",
            "network-bandwidth",
            "source-connection-loss");
  }

  @Test
  void refusesANullTopologyInOneLine() {
    assertThatThrownBy(() -> OwnJobPipelines.provider("orders-enricher", null))
        .isInstanceOf(NullPointerException.class)
        .hasMessageContaining("a topology is required")
        .hasMessageNotContaining("\n");
    assertThatThrownBy(() -> OwnJobPipelines.providerForJob("orders-enricher", null))
        .isInstanceOf(NullPointerException.class)
        .hasMessageContaining("a job is required");
  }

  @Test
  void refusesANameThatIsNotKebabCaseOrIsAReferencePipelines() {
    assertThatThrownBy(() -> OwnJobPipelines.provider("Orders Enricher", REFERENCE_SINKS))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("kebab-case")
        .hasMessageContaining("'Orders Enricher'");
    assertThatThrownBy(() -> OwnJobPipelines.provider("direct", REFERENCE_SINKS))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("reference pipeline");
  }

  @Test
  void theRecordNamesTheTeamsJobAndSaysFaultPointsAreOff() {
    TeamOrdersJob job = TeamOrdersJob.onLabSource("orders-enricher", config(), REFERENCE_SINKS);

    assertThat(job.faultPoints()).isEmpty();
    assertThat(job.settings().faultPoints()).isFalse();
    assertThat(job.effectiveConfiguration())
        .containsEntry("pipeline", "orders-enricher")
        .containsEntry("pipeline.job", "the team's own Flink topology on the lab's CDC source")
        .containsEntry("source", "127.0.0.1:3307/lab.orders")
        .containsKey("source.snapshot.split-size")
        .hasEntrySatisfying("fault-points", value -> assertThat(value).startsWith("off"));
    assertThat(job.effectiveConfiguration().values()).noneMatch(v -> v.contains("s3cret-pw"));
    assertThat(job.withParallelism(3).effectiveConfiguration())
        .containsEntry("pipeline", "orders-enricher")
        .containsEntry("parallelism.default", "3");
  }

  @Test
  void aTopologyIsBuiltBehindTheLabsCdcSource() throws Exception {
    TeamTopology keyed =
        (env, changes, sinks) ->
            sinks.writeReferenceSinks(
                changes
                    .keyBy(change -> change.image().orderId())
                    .map(change -> change)
                    .returns(ChangeEnvelope.class)
                    .uid("team-pass-through"));
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();

    TeamOrdersJob.onLabSource("orders-enricher", config(), keyed).build(env);

    assertThat(env.getStreamGraph().getStreamNodes())
        .extracting(StreamNode::getTransformationUID)
        .contains(DirectJobConfig.SOURCE_UID, "team-pass-through", "to-current-rows")
        .doesNotContain("fault-point-operator");
    assertThat(env.getCheckpointConfig().isCheckpointingEnabled()).isTrue();
  }

  @Test
  void aWholeJobGetsTheSourceAndTheTables() throws Exception {
    AtomicReference<OrdersSource> source = new AtomicReference<>();
    AtomicReference<SinkTables> tables = new AtomicReference<>();
    TeamJob job =
        (env, given, sinks) -> {
          source.set(given);
          tables.set(sinks);
          DataStream<Long> nothing = env.fromSequence(1, 1);
          nothing.sinkTo(new DiscardingSink<>());
        };
    TeamOrdersJob built = TeamOrdersJob.readingSource("orders-own-source", config(), job);

    built.build(StreamExecutionEnvironment.getExecutionEnvironment());

    assertThat(source.get().qualifiedTable()).isEqualTo("lab.orders");
    assertThat(source.get().port()).isEqualTo(3307);
    assertThat(source.get().credentials().revealPassword()).isEqualTo("s3cret-pw");
    assertThat(source.get().toString()).contains("cdc").doesNotContain("s3cret-pw");
    assertThat(tables.get().current()).isEqualTo(TableIdentifier.of("lab", "orders_current"));
    assertThat(tables.get().sinkCatalog())
        .isEqualTo(SinkCatalog.hadoop(directory.resolve("warehouse")));
    assertThat(built.effectiveConfiguration())
        .containsEntry("pipeline", "orders-own-source")
        .containsEntry("source.connector", "the team's own")
        .doesNotContainKey("source.snapshot.split-size");
  }

  @Test
  void theSinkTablesLoadOnlyTheTablesTheLabReads() {
    SinkTables sinks = new SinkTables(config().settings());

    assertThat(sinks.tableLoader(sinks.changelog())).isNotNull();
    assertThatThrownBy(() -> sinks.tableLoader(TableIdentifier.of("lab", "orders")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("lab.orders_current")
        .hasMessageContaining("not lab.orders");
  }

  private DirectJobConfig config() {
    return DirectJobConfig.builder()
        .source(
            new SourceEndpoint(
                "jdbc:mysql://127.0.0.1:3307/lab",
                "127.0.0.1",
                3307,
                "lab",
                "orders",
                Credentials.of("cdc", "s3cret-pw")))
        .settings(
            s ->
                s.warehouse(directory.resolve("warehouse"))
                    .checkpointDirectory(directory.resolve("checkpoints")))
        .build();
  }
}
