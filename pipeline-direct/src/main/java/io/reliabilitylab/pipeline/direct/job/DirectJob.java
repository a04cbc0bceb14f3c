package io.reliabilitylab.pipeline.direct.job;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.reliabilitylab.pipeline.direct.cdc.ChangeEnvelopeDeserializer;
import io.reliabilitylab.pipeline.flink.envelope.ChangeEnvelope;
import io.reliabilitylab.pipeline.flink.faults.FaultInjectingSource;
import io.reliabilitylab.pipeline.flink.job.OrdersJob;
import io.reliabilitylab.pipeline.flink.job.OrdersJobSettings;
import io.reliabilitylab.pipeline.flink.job.OrdersTopology;
import io.reliabilitylab.pipeline.flink.sink.JobVariant;
import io.reliabilitylab.source.mysql.TransactionFence;
import io.reliabilitylab.source.postgres.PostgresOrdersTable;
import io.reliabilitylab.spi.data.CommitConsistency;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.connector.source.Source;
import org.apache.flink.api.connector.source.SourceSplit;
import org.apache.flink.cdc.connectors.mysql.source.MySqlSource;
import org.apache.flink.cdc.connectors.mysql.table.StartupOptions;
import org.apache.flink.cdc.connectors.postgres.source.PostgresDialect;
import org.apache.flink.cdc.connectors.postgres.source.PostgresSourceBuilder;
import org.apache.flink.cdc.connectors.postgres.source.config.PostgresSourceConfigFactory;
import org.apache.flink.cdc.connectors.postgres.source.offset.PostgresOffsetFactory;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apiguardian.api.API;

/**
 * The direct pipeline's Flink job: Flink CDC's {@code MySqlSource} reads {@code db.orders}
 * (snapshot, then binlog), or its PostgreSQL source {@code public.orders} (snapshot, then {@code
 * pgoutput}), into {@link ChangeEnvelope}s, which {@link OrdersTopology} writes to {@code
 * orders_current} (upsert) and {@code orders_changelog} (append), exactly once. The job knows
 * nothing of the cluster it runs on. Unless fault points are off, the source's enumerator is
 * wrapped so that the coordinator fault point can fail it.
 *
 * <pre>{@code
 * DirectJob job = DirectJob.create(config);
 * JobID id = cluster.submit(job);
 * }</pre>
 */
@API(status = EXPERIMENTAL)
public final class DirectJob implements OrdersJob {

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
  public OrdersJobSettings settings() {
    return config.settings();
  }

  @Override
  public DirectJob withParallelism(int parallelism) {
    return create(
        config.toBuilder()
            .settings(config.settings().toBuilder().parallelism(parallelism).build())
            .build());
  }

  @Override
  public Map<String, String> effectiveConfiguration() {
    return config.effectiveConfiguration();
  }

  /**
   * One change-log reader feeds every writer, and the sinks commit what came before each
   * checkpoint's barrier: each commit holds a prefix of the source's changes, which may end inside
   * a source transaction unless the job aligns transactions.
   */
  @Override
  public CommitConsistency commitConsistency() {
    return config.settings().alignTransactions()
        ? CommitConsistency.TRANSACTION_PREFIX
        : CommitConsistency.CHANGE_PREFIX;
  }

  @Override
  public String name() {
    return config.settings().jobName();
  }

  /** Creates the two Iceberg tables unless they exist (see {@link OrdersTopology}). */
  public void createTablesIfAbsent() {
    OrdersTopology.createTablesIfAbsent(config.settings());
  }

  @Override
  public void build(StreamExecutionEnvironment env) {
    createTablesIfAbsent();
    OrdersTopology.configure(env, config.settings());
    OrdersTopology.sinkTo(
        OrdersTopology.alignTransactions(changes(env), config.settings()), config.settings());
  }

  /**
   * Adds the job's CDC source to {@code env} (uid {@value DirectJobConfig#SOURCE_UID}) and returns
   * its stream of change envelopes: what the reference job, or a team's own topology, is built on.
   * With transactions aligned the stream also carries the source's {@linkplain
   * ChangeEnvelope#isFence() fences}, which {@link OrdersTopology#alignTransactions} consumes.
   */
  public DataStream<ChangeEnvelope> changes(StreamExecutionEnvironment env) {
    return config.engine() == SourceEngine.POSTGRES
        ? from(env, postgresSource(), "postgres-cdc public." + config.source().table())
        : from(env, mySqlSource(), "mysql-cdc " + tableName());
  }

  private <SplitT extends SourceSplit, EnumChkT> DataStream<ChangeEnvelope> from(
      StreamExecutionEnvironment env,
      Source<ChangeEnvelope, SplitT, EnumChkT> cdcSource,
      String name) {
    return (config.settings().faultPoints()
            ? env.fromSource(
                FaultInjectingSource.wrap(cdcSource)
                    .withFaultChannel(config.settings().faultChannel()),
                WatermarkStrategy.noWatermarks(),
                name)
            : env.fromSource(cdcSource, WatermarkStrategy.noWatermarks(), name))
        .uid(OrdersTopology.sourceUid(DirectJobConfig.SOURCE_UID, config.settings()))
        .name(name);
  }

  private MySqlSource<ChangeEnvelope> mySqlSource() {
    return MySqlSource.<ChangeEnvelope>builder()
        .hostname(config.source().host())
        .port(config.source().port())
        .databaseList(databases())
        .tableList(tables())
        .username(config.source().user())
        .password(config.source().credentials().revealPassword())
        .serverId(config.serverIdRange())
        .serverTimeZone(config.serverTimeZone())
        .splitSize(config.splitSize())
        .startupOptions(StartupOptions.initial())
        .deserializer(new ChangeEnvelopeDeserializer())
        .debeziumProperties(
            binlogClientProperties(
                config.settings().variant() != JobVariant.BROKEN_SOURCE_NO_RECONNECT))
        .build();
  }

  /**
   * Flink CDC's incremental PostgreSQL source: a snapshot in chunks, then {@code pgoutput} from the
   * job's own slot ({@link DirectJobConfig#slotName()}), through the publication the lab created
   * with the table (the capture role owns nothing, so the connector must not create one). The
   * slot's confirmed LSN follows completed checkpoints, {@value DirectJobConfig#LSN_COMMIT_DELAY}
   * checkpoints behind, so that a restore from one of the last checkpoints still finds its WAL; and
   * only the LSNs checkpoints stored ({@link CheckpointOffsetDialect}), unless the job variant is
   * {@link JobVariant#BROKEN_SOURCE_COMMITS_READ_POSITION} ({@link ReadPositionDialect}). Built as
   * {@code PostgresSourceBuilder#build()} builds it, with the dialect chosen here.
   */
  private PostgresSourceBuilder.PostgresIncrementalSource<ChangeEnvelope> postgresSource() {
    Properties debezium = new Properties();
    debezium.setProperty(
        "publication.name", PostgresOrdersTable.publicationOf(config.source().table()));
    debezium.setProperty("publication.autocreate.mode", "disabled");
    debezium.setProperty(
        "poll.interval.ms", Long.toString(DirectJobConfig.SOURCE_POLL_INTERVAL_MS));
    PostgresSourceConfigFactory source = new PostgresSourceConfigFactory();
    source.hostname(config.source().host());
    source.port(config.source().port());
    source.database(config.source().database());
    source.schemaList(new String[] {"public"});
    source.tableList("public." + config.source().table());
    source.username(config.source().user());
    source.password(config.source().credentials().revealPassword());
    source.slotName(config.slotName());
    source.decodingPluginName("pgoutput");
    source.serverTimeZone(config.serverTimeZone());
    source.splitSize(config.splitSize());
    source.setLsnCommitCheckpointsDelay(DirectJobConfig.LSN_COMMIT_DELAY);
    source.startupOptions(org.apache.flink.cdc.connectors.base.options.StartupOptions.initial());
    source.debeziumProperties(debezium);
    if (!config.heartbeatInterval().isZero()) {
      source.heartbeatInterval(config.heartbeatInterval());
    }
    PostgresDialect dialect =
        config.settings().variant() == JobVariant.BROKEN_SOURCE_COMMITS_READ_POSITION
            ? new ReadPositionDialect(source.create(0))
            : new CheckpointOffsetDialect(source.create(0));
    return new PostgresSourceBuilder.PostgresIncrementalSource<>(
        source, new ChangeEnvelopeDeserializer(), new PostgresOffsetFactory(), dialect);
  }

  /**
   * A binlog connection closed by the server (a killed connection, a restarted server) ends without
   * an error: the client's keep-alive thread notices it only when no event arrived for an interval,
   * Debezium's default of 60 s, so the job stalled 60 to 120 s before it reconnected. With 5 s it
   * reconnects within 5 to 10 s of the server answering again (a reset connection, a restarted
   * server); the server is asked for a heartbeat every 0.8 interval, so an idle connection is not
   * mistaken for a lost one (a client blocked longer than that by backpressure reconnects at its
   * own position, which is harmless).
   */
  private static Properties binlogClientProperties(boolean keepAlive) {
    Properties properties = new Properties();
    // The reader's queue waits this long whenever it finds no record; at Debezium's 500 ms a
    // snapshot split of an empty or small table took a whole second to report itself finished
    // (two idle polls), which made up most of the job's start before its binlog reader connected.
    properties.setProperty(
        "poll.interval.ms", Long.toString(DirectJobConfig.SOURCE_POLL_INTERVAL_MS));
    // The keep-alive thread is what notices a dropped connection and reconnects.
    properties.setProperty("connect.keep.alive", Boolean.toString(keepAlive));
    properties.setProperty(
        "connect.keep.alive.interval.ms",
        Long.toString(DirectJobConfig.BINLOG_KEEP_ALIVE_INTERVAL_MS));
    return properties;
  }

  /** The fence's database and table as well when the job aligns transactions. */
  private String[] databases() {
    return config.settings().alignTransactions()
        ? new String[] {config.source().database(), TransactionFence.DATABASE}
        : new String[] {config.source().database()};
  }

  private String[] tables() {
    return config.settings().alignTransactions()
        ? new String[] {tableName(), TransactionFence.qualifiedTable()}
        : new String[] {tableName()};
  }

  private String tableName() {
    return config.source().database() + "." + config.source().table();
  }
}
