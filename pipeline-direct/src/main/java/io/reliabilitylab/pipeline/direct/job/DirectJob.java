package io.reliabilitylab.pipeline.direct.job;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.reliabilitylab.checks.iceberg.IcebergWarehouse;
import io.reliabilitylab.checks.iceberg.OrdersTables;
import io.reliabilitylab.pipeline.direct.cdc.ChangeEnvelope;
import io.reliabilitylab.pipeline.direct.cdc.ChangeEnvelopeDeserializer;
import io.reliabilitylab.pipeline.direct.cluster.FlinkJob;
import io.reliabilitylab.pipeline.direct.faults.FaultInjectingCatalogLoader;
import io.reliabilitylab.pipeline.direct.faults.FaultInjectingSource;
import io.reliabilitylab.pipeline.direct.faults.FaultSwitchboard;
import io.reliabilitylab.pipeline.direct.faults.OperatorFaultPoint;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.functions.FilterFunction;
import org.apache.flink.cdc.connectors.mysql.source.MySqlSource;
import org.apache.flink.cdc.connectors.mysql.table.StartupOptions;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.ExternalizedCheckpointRetention;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.core.execution.CheckpointingMode;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.CheckpointConfig;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.types.RowKind;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.flink.CatalogLoader;
import org.apache.iceberg.flink.TableLoader;
import org.apache.iceberg.flink.sink.FlinkSink;
import org.apiguardian.api.API;

/**
 * The direct pipeline's Flink job: Flink CDC's {@code MySqlSource} reads {@code db.orders}
 * (snapshot, then binlog) into {@link ChangeEnvelope}s; one branch upserts {@code orders_current}
 * on {@code order_id} (equality deletes), the other appends one {@code orders_changelog} row per
 * envelope. Both Iceberg sinks commit on checkpoints, exactly once. The job knows nothing of the
 * cluster it runs on. Unless {@link DirectJobConfig#faultPoints()} is off, it carries the fault
 * points of {@link FaultSwitchboard}: the source's enumerator is wrapped, an operator fault point
 * sits between the source and both branches, the sinks commit through a fault-injecting catalog and
 * checkpoints go through the {@code srlfault://} file system — all transparent until armed.
 *
 * <pre>{@code
 * DirectJob job = DirectJob.create(config);
 * job.createTablesIfAbsent();
 * JobID id = cluster.submit(job);
 * }</pre>
 */
@API(status = EXPERIMENTAL)
public final class DirectJob implements FlinkJob {

  private final DirectJobConfig config;

  private DirectJob(DirectJobConfig config) {
    this.config = config;
  }

  /** A job for a configuration. */
  public static DirectJob create(DirectJobConfig config) {
    return new DirectJob(Objects.requireNonNull(config, "config"));
  }

  public DirectJobConfig config() {
    return config;
  }

  @Override
  public String name() {
    return config.jobName();
  }

  /**
   * Creates the two Iceberg tables unless they exist, and sets the sink's table property {@value
   * DirectJobConfig#MAX_CONTINUOUS_EMPTY_COMMITS} (read by the committer when it starts) on both.
   */
  public void createTablesIfAbsent() {
    try (IcebergWarehouse warehouse = IcebergWarehouse.open(config.warehouse())) {
      warehouse.createOrdersTablesIfAbsent(config.namespace());
      String emptyCommits = Integer.toString(config.maxContinuousEmptyCommits());
      for (String name : List.of(OrdersTables.CURRENT, OrdersTables.CHANGELOG)) {
        Table table = warehouse.load(TableIdentifier.of(config.namespace(), name));
        if (!emptyCommits.equals(
            table.properties().get(DirectJobConfig.MAX_CONTINUOUS_EMPTY_COMMITS))) {
          table
              .updateProperties()
              .set(DirectJobConfig.MAX_CONTINUOUS_EMPTY_COMMITS, emptyCommits)
              .commit();
        }
      }
    }
  }

  @Override
  public void build(StreamExecutionEnvironment env) {
    createTablesIfAbsent();
    configure(env);

    MySqlSource<ChangeEnvelope> cdcSource = source();
    DataStream<ChangeEnvelope> envelopes =
        (config.faultPoints()
                ? env.fromSource(
                    FaultInjectingSource.wrap(cdcSource),
                    WatermarkStrategy.noWatermarks(),
                    "mysql-cdc " + tableName())
                : env.fromSource(
                    cdcSource, WatermarkStrategy.noWatermarks(), "mysql-cdc " + tableName()))
            .uid(DirectJobConfig.SOURCE_UID)
            .name("mysql-cdc " + tableName());
    if (config.faultPoints()) {
      envelopes =
          envelopes
              .map(new OperatorFaultPoint<ChangeEnvelope>(new IsSnapshotRead()))
              .returns(envelopes.getType())
              .uid(OperatorFaultPoint.UID)
              .name("fault point " + FaultSwitchboard.OPERATOR);
    }

    DataStream<RowData> currentRows =
        envelopes
            .flatMap(new CurrentRowsFunction())
            .returns(InternalTypeInfo.of(EnvelopeRows.CURRENT_TYPE))
            .uid("to-current-rows")
            .name("envelope -> " + OrdersTables.CURRENT);
    boolean currentAppend = config.variant() == JobVariant.BROKEN_CURRENT_APPEND;
    if (currentAppend) {
      currentRows =
          currentRows
              .filter(new InsertsOnly())
              .returns(InternalTypeInfo.of(EnvelopeRows.CURRENT_TYPE))
              .uid("broken-inserts-only")
              .name("BROKEN: drop deletes and update-befores");
    }
    FlinkSink.Builder current =
        FlinkSink.forRowData(currentRows)
            .tableLoader(tableLoader(OrdersTables.CURRENT))
            .upsert(!currentAppend)
            .uidPrefix(config.currentUidPrefix())
            .writeParallelism(config.parallelism());
    if (!currentAppend) {
      current.equalityFieldColumns(List.of("order_id"));
    }
    current.append();

    DataStream<RowData> changelogRows =
        envelopes
            .map(new ChangelogRowFunction())
            .returns(InternalTypeInfo.of(EnvelopeRows.CHANGELOG_TYPE))
            .uid("to-changelog-rows")
            .name("envelope -> " + OrdersTables.CHANGELOG);
    FlinkSink.forRowData(changelogRows)
        .tableLoader(tableLoader(OrdersTables.CHANGELOG))
        .uidPrefix(config.changelogUidPrefix())
        .writeParallelism(config.parallelism())
        .append();
  }

  private void configure(StreamExecutionEnvironment env) {
    Configuration settings = new Configuration();
    // A fixed delay: recovery time must not depend on how many faults came before.
    settings.set(RestartStrategyOptions.RESTART_STRATEGY, "fixed-delay");
    settings.set(
        RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, config.restartAttempts());
    settings.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY, config.restartDelay());
    settings.set(CheckpointingOptions.CHECKPOINT_STORAGE, "filesystem");
    settings.set(
        CheckpointingOptions.CHECKPOINTS_DIRECTORY, config.checkpointStorageUri().toString());
    if (config.taskStateInFiles()) {
      settings.set(CheckpointingOptions.FS_SMALL_FILE_THRESHOLD, MemorySize.ZERO);
    }
    env.configure(settings, DirectJob.class.getClassLoader());
    env.setParallelism(config.parallelism());
    env.enableCheckpointing(config.checkpointInterval().toMillis(), CheckpointingMode.EXACTLY_ONCE);
    CheckpointConfig checkpoints = env.getCheckpointConfig();
    checkpoints.setCheckpointTimeout(config.checkpointTimeout().toMillis());
    checkpoints.setTolerableCheckpointFailureNumber(config.tolerableCheckpointFailures());
    checkpoints.setExternalizedCheckpointRetention(
        ExternalizedCheckpointRetention.RETAIN_ON_CANCELLATION);
  }

  private MySqlSource<ChangeEnvelope> source() {
    return MySqlSource.<ChangeEnvelope>builder()
        .hostname(config.sourceHost())
        .port(config.sourcePort())
        .databaseList(config.database())
        .tableList(tableName())
        .username(config.credentials().user())
        .password(config.credentials().password())
        .serverId(config.serverIdRange())
        .serverTimeZone(config.serverTimeZone())
        .splitSize(config.splitSize())
        .startupOptions(StartupOptions.initial())
        .deserializer(new ChangeEnvelopeDeserializer())
        .build();
  }

  private TableLoader tableLoader(String table) {
    CatalogLoader catalog =
        CatalogLoader.hadoop(
            IcebergWarehouse.CATALOG_NAME,
            IcebergWarehouse.hadoopConfiguration(),
            IcebergWarehouse.catalogProperties(config.warehouse()));
    if (config.faultPoints()) {
      catalog =
          FaultInjectingCatalogLoader.wrap(
              catalog,
              Map.of(
                  OrdersTables.CURRENT, FaultSwitchboard.SINK_COMMIT_CURRENT,
                  OrdersTables.CHANGELOG, FaultSwitchboard.SINK_COMMIT_CHANGELOG));
    }
    return TableLoader.fromCatalog(catalog, TableIdentifier.of(config.namespace(), table));
  }

  /**
   * The names of the fault points this job has (no-ops until armed through {@link
   * FaultSwitchboard}); empty when {@link DirectJobConfig#faultPoints()} is off.
   */
  public Set<String> faultPoints() {
    return config.faultPointNames();
  }

  /** Tells snapshot-phase reads apart, for the operator fault point's {@code snapshot-phase:K}. */
  /** BROKEN on purpose: keeps inserts and update-afters, so no old row is ever deleted. */
  private static final class InsertsOnly implements FilterFunction<RowData> {
    private static final long serialVersionUID = 1L;

    @Override
    public boolean filter(RowData row) {
      return row.getRowKind() == RowKind.INSERT || row.getRowKind() == RowKind.UPDATE_AFTER;
    }
  }

  private static final class IsSnapshotRead implements FilterFunction<ChangeEnvelope> {
    private static final long serialVersionUID = 1L;

    @Override
    public boolean filter(ChangeEnvelope envelope) {
      return "r".equals(envelope.op());
    }
  }

  private String tableName() {
    return config.database() + "." + config.table();
  }
}
