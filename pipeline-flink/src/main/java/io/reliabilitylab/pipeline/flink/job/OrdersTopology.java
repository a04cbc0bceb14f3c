package io.reliabilitylab.pipeline.flink.job;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.reliabilitylab.checks.iceberg.CatalogTables;
import io.reliabilitylab.checks.iceberg.IcebergCatalog;
import io.reliabilitylab.checks.iceberg.IcebergWarehouse;
import io.reliabilitylab.checks.iceberg.OrdersTables;
import io.reliabilitylab.checks.iceberg.SinkCatalog;
import io.reliabilitylab.pipeline.flink.envelope.ChangeEnvelope;
import io.reliabilitylab.pipeline.flink.faults.FaultChannelWatcher;
import io.reliabilitylab.pipeline.flink.faults.FaultInjectingCatalogLoader;
import io.reliabilitylab.pipeline.flink.faults.FaultSwitchboard;
import io.reliabilitylab.pipeline.flink.faults.OperatorFaultPoint;
import io.reliabilitylab.pipeline.flink.sink.ChangelogRowFunction;
import io.reliabilitylab.pipeline.flink.sink.CurrentRowsFunction;
import io.reliabilitylab.pipeline.flink.sink.EnvelopeRows;
import io.reliabilitylab.pipeline.flink.sink.JobVariant;
import io.reliabilitylab.pipeline.flink.sink.broken.AtLeastOnceChangelogSink;
import io.reliabilitylab.pipeline.flink.sink.broken.SplitCommitTableLoader;
import io.reliabilitylab.pipeline.flink.transaction.TransactionAligner;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.flink.api.common.functions.FilterFunction;
import org.apache.flink.api.java.functions.KeySelector;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.ExternalizedCheckpointRetention;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.configuration.StateRecoveryOptions;
import org.apache.flink.core.execution.CheckpointingMode;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.CheckpointConfig;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.types.RowKind;
import org.apache.iceberg.Table;
import org.apache.iceberg.UpdateProperties;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.flink.CatalogLoader;
import org.apache.iceberg.flink.TableLoader;
import org.apache.iceberg.flink.sink.FlinkSink;
import org.apiguardian.api.API;

/**
 * The part every reference job shares once its source produced {@link ChangeEnvelope}s: the
 * environment's checkpointing and restart strategy, the operator fault point, and the two Iceberg
 * sinks — {@code orders_current} upserted on {@code order_id} (equality deletes) and {@code
 * orders_changelog} with one appended row per envelope, both committing on checkpoints, exactly
 * once.
 *
 * <pre>{@code
 * OrdersTopology.configure(env, settings);
 * DataStream<ChangeEnvelope> envelopes = ...; // the job's source
 * OrdersTopology.sinkTo(envelopes, settings);
 * }</pre>
 */
@API(status = EXPERIMENTAL)
public final class OrdersTopology {

  private OrdersTopology() {}

  /**
   * Creates the two Iceberg tables unless they exist, and sets the sink's table property {@value
   * OrdersJobSettings#MAX_CONTINUOUS_EMPTY_COMMITS} (read by the committer when it starts) on both.
   */
  public static void createTablesIfAbsent(OrdersJobSettings settings) {
    try (IcebergCatalog catalog = settings.catalog().open()) {
      CatalogTables.createOrdersTablesIfAbsent(catalog.catalog(), settings.namespace());
      Map<String, String> wanted = tableProperties(settings);
      for (String name : List.of(OrdersTables.CURRENT, OrdersTables.CHANGELOG)) {
        Table table = catalog.load(TableIdentifier.of(settings.namespace(), name));
        UpdateProperties update = table.updateProperties();
        boolean changed = false;
        for (Map.Entry<String, String> property : wanted.entrySet()) {
          if (!property.getValue().equals(table.properties().get(property.getKey()))) {
            update.set(property.getKey(), property.getValue());
            changed = true;
          }
        }
        if (changed) {
          update.commit();
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Closing the sink's catalog client failed", e);
    }
  }

  /**
   * The tables' properties the job needs: {@value OrdersJobSettings#MAX_CONTINUOUS_EMPTY_COMMITS};
   * behind a catalog service, also more and shorter commit retries ({@link
   * OrdersJobSettings#SERVICE_COMMIT_RETRIES}): a sink committing every checkpoint and a compaction
   * race through round trips to the service and the object store, and Iceberg's 4 retries with
   * backoff up to a minute let the compaction lose every one.
   */
  static Map<String, String> tableProperties(OrdersJobSettings settings) {
    Map<String, String> properties = new LinkedHashMap<>();
    properties.put(
        OrdersJobSettings.MAX_CONTINUOUS_EMPTY_COMMITS,
        Integer.toString(settings.maxContinuousEmptyCommits()));
    if (settings.catalog().commitsAcrossProcesses()) {
      properties.putAll(OrdersJobSettings.SERVICE_COMMIT_RETRIES);
    }
    return properties;
  }

  /**
   * Checkpointing (exactly once, retained on cancellation), restarts and parallelism; with a fault
   * channel, links the checkpoint directory to it (a small file the checkpoint-storage point
   * reads).
   */
  public static void configure(StreamExecutionEnvironment env, OrdersJobSettings settings) {
    Configuration configuration = new Configuration();
    // A fixed delay: recovery time must not depend on how many faults came before.
    configuration.set(RestartStrategyOptions.RESTART_STRATEGY, "fixed-delay");
    configuration.set(
        RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, settings.restartAttempts());
    configuration.set(
        RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY, settings.restartDelay());
    configuration.set(CheckpointingOptions.CHECKPOINT_STORAGE, "filesystem");
    configuration.set(
        CheckpointingOptions.CHECKPOINTS_DIRECTORY, settings.checkpointStorageUri().toString());
    if (settings.taskStateInFiles()) {
      configuration.set(CheckpointingOptions.FS_SMALL_FILE_THRESHOLD, MemorySize.ZERO);
    }
    if (settings.faultPoints() && settings.faultChannel() != null) {
      // The checkpoint-storage point has no settings of its own: it follows this link.
      FaultChannelWatcher.linkCheckpointDirectory(
          settings.checkpointDirectory(), settings.faultChannel());
    }
    if (settings.variant() == JobVariant.BROKEN_SOURCE_NOT_RESTORED) {
      // The source's state, under its former uid, is dropped instead of refusing the restore.
      configuration.set(StateRecoveryOptions.SAVEPOINT_IGNORE_UNCLAIMED_STATE, true);
    }
    env.configure(configuration, OrdersTopology.class.getClassLoader());
    env.setParallelism(settings.parallelism());
    env.enableCheckpointing(
        settings.checkpointInterval().toMillis(), CheckpointingMode.EXACTLY_ONCE);
    CheckpointConfig checkpoints = env.getCheckpointConfig();
    checkpoints.setCheckpointTimeout(settings.checkpointTimeout().toMillis());
    checkpoints.setTolerableCheckpointFailureNumber(settings.tolerableCheckpointFailures());
    checkpoints.setExternalizedCheckpointRetention(
        ExternalizedCheckpointRetention.RETAIN_ON_CANCELLATION);
    if (settings.alignTransactions()) {
      // an unaligned barrier overtakes records in flight, so a checkpoint could cut a transaction
      // the aligner released whole; whatever a cluster's configuration says
      checkpoints.enableUnalignedCheckpoints(false);
    }
  }

  /**
   * Adds the operator fault point (with fault points on) and both Iceberg sinks behind a stream of
   * envelopes.
   */
  public static void sinkTo(DataStream<ChangeEnvelope> source, OrdersJobSettings settings) {
    DataStream<ChangeEnvelope> envelopes = source;
    if (settings.faultPoints()) {
      envelopes =
          envelopes
              .map(
                  new OperatorFaultPoint<ChangeEnvelope>(
                      new IsSnapshotRead(), settings.faultChannel(), settings.startGate()))
              .returns(envelopes.getType())
              .uid(OperatorFaultPoint.UID)
              .name("fault point " + FaultSwitchboard.OPERATOR);
    }

    DataStream<RowData> currentRows = currentRows(envelopes);
    boolean currentAppend = settings.variant() == JobVariant.BROKEN_CURRENT_APPEND;
    if (currentAppend) {
      currentRows =
          currentRows
              .filter(new InsertsOnly())
              .returns(InternalTypeInfo.of(EnvelopeRows.CURRENT_TYPE))
              .uid("broken-inserts-only")
              .name("BROKEN: drop deletes and update-befores");
    }
    TableLoader currentTable = tableLoader(settings, OrdersTables.CURRENT);
    if (settings.variant() == JobVariant.BROKEN_CURRENT_SPLIT_COMMIT) {
      currentTable = SplitCommitTableLoader.wrap(currentTable);
    } else if (settings.variant() == JobVariant.BROKEN_CURRENT_COMMIT_PER_WRITER) {
      currentTable =
          SplitCommitTableLoader.wrap(
              currentTable, SplitCommitTableLoader.Split.ONE_WRITER_AT_A_TIME);
    }
    FlinkSink.Builder current =
        FlinkSink.forRowData(currentRows)
            .tableLoader(currentTable)
            .upsert(!currentAppend)
            .uidPrefix(settings.currentUidPrefix())
            .writeParallelism(settings.parallelism());
    if (!currentAppend) {
      current.equalityFieldColumns(List.of("order_id"));
    }
    current.append();

    if (settings.variant() == JobVariant.BROKEN_CHANGELOG_AT_LEAST_ONCE) {
      changelogRows(envelopes)
          .addSink(new AtLeastOnceChangelogSink(tableLoader(settings, OrdersTables.CHANGELOG)))
          .uid(settings.changelogUidPrefix() + "-broken-at-least-once")
          .name("BROKEN: " + OrdersTables.CHANGELOG + " recommitted after a restore");
      return;
    }
    FlinkSink.forRowData(changelogRows(envelopes))
        .tableLoader(tableLoader(settings, OrdersTables.CHANGELOG))
        .uidPrefix(settings.changelogUidPrefix())
        .writeParallelism(settings.parallelism())
        .append();
  }

  /**
   * With {@link OrdersJobSettings#alignTransactions()}, the {@link TransactionAligner} right behind
   * the source, at parallelism 1 (the change-log reader is one ordered stream), its output keyed by
   * {@code order_id} so each key's changes keep their order into the parallel writers; otherwise
   * {@code changes} as they are.
   */
  public static DataStream<ChangeEnvelope> alignTransactions(
      DataStream<ChangeEnvelope> changes, OrdersJobSettings settings) {
    if (!settings.alignTransactions()) {
      return changes;
    }
    return changes
        .flatMap(new TransactionAligner())
        .returns(changes.getType())
        .setParallelism(1)
        .setMaxParallelism(1)
        .uid(TransactionAligner.UID)
        .name("source transactions held whole")
        .keyBy(new OrderIdOf());
  }

  /**
   * The uid of the job's source operator: {@code stableUid}, or for {@link
   * JobVariant#BROKEN_SOURCE_NOT_RESTORED} a new one on every build, so that no restored state maps
   * to it.
   */
  public static String sourceUid(String stableUid, OrdersJobSettings settings) {
    return settings.variant() == JobVariant.BROKEN_SOURCE_NOT_RESTORED
        ? stableUid + "-broken-" + UUID.randomUUID()
        : stableUid;
  }

  /**
   * The current table's changes of each envelope, in the table's column order: {@code +I} for
   * {@code r}/{@code c}, {@code -U}/{@code +U} for {@code u}, {@code -D} for {@code d} (operator
   * uid {@code to-current-rows}).
   */
  public static DataStream<RowData> currentRows(DataStream<ChangeEnvelope> envelopes) {
    return envelopes
        .flatMap(new CurrentRowsFunction())
        .returns(InternalTypeInfo.of(EnvelopeRows.CURRENT_TYPE))
        .uid("to-current-rows")
        .name("envelope -> " + OrdersTables.CURRENT);
  }

  /**
   * One appended changelog row per envelope, in the table's column order (operator uid {@code
   * to-changelog-rows}).
   */
  public static DataStream<RowData> changelogRows(DataStream<ChangeEnvelope> envelopes) {
    return envelopes
        .map(new ChangelogRowFunction())
        .returns(InternalTypeInfo.of(EnvelopeRows.CHANGELOG_TYPE))
        .uid("to-changelog-rows")
        .name("envelope -> " + OrdersTables.CHANGELOG);
  }

  /**
   * Loads {@code table} of the settings' namespace from the settings' catalog, through the
   * sink-commit fault points when the settings have fault points.
   */
  public static TableLoader tableLoader(OrdersJobSettings settings, String table) {
    CatalogLoader catalog = catalogLoader(settings.catalog());
    if (settings.faultPoints()) {
      catalog =
          FaultInjectingCatalogLoader.wrap(
              catalog,
              Map.of(
                  OrdersTables.CURRENT, FaultSwitchboard.SINK_COMMIT_CURRENT,
                  OrdersTables.CHANGELOG, FaultSwitchboard.SINK_COMMIT_CHANGELOG),
              settings.faultChannel());
    }
    return TableLoader.fromCatalog(catalog, TableIdentifier.of(settings.namespace(), table));
  }

  /**
   * The loader Iceberg's Flink sink opens {@code catalog} with in every task: a Hadoop catalog or a
   * REST catalog client, with the catalog's client properties (its secrets too: they travel in the
   * job graph, as in any job that writes to that catalog).
   */
  public static CatalogLoader catalogLoader(SinkCatalog catalog) {
    if (catalog instanceof SinkCatalog.Rest rest) {
      return CatalogLoader.rest(
          IcebergWarehouse.CATALOG_NAME,
          IcebergWarehouse.hadoopConfiguration(),
          rest.clientProperties());
    }
    return CatalogLoader.hadoop(
        IcebergWarehouse.CATALOG_NAME,
        IcebergWarehouse.hadoopConfiguration(),
        catalog.clientProperties());
  }

  /** A change's key: a transaction's changes, released together, go on by order id. */
  private static final class OrderIdOf implements KeySelector<ChangeEnvelope, Long> {
    private static final long serialVersionUID = 1L;

    @Override
    public Long getKey(ChangeEnvelope envelope) {
      return envelope.image().orderId();
    }
  }

  /** BROKEN on purpose: keeps inserts and update-afters, so no old row is ever deleted. */
  private static final class InsertsOnly implements FilterFunction<RowData> {
    private static final long serialVersionUID = 1L;

    @Override
    public boolean filter(RowData row) {
      return row.getRowKind() == RowKind.INSERT || row.getRowKind() == RowKind.UPDATE_AFTER;
    }
  }

  /** Tells snapshot-phase reads apart, for the operator fault point's {@code snapshot-phase:K}. */
  private static final class IsSnapshotRead implements FilterFunction<ChangeEnvelope> {
    private static final long serialVersionUID = 1L;

    @Override
    public boolean filter(ChangeEnvelope envelope) {
      return "r".equals(envelope.op());
    }
  }
}
