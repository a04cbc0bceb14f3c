package io.reliabilitylab.pipeline.direct.job;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.reliabilitylab.pipeline.flink.job.OrdersJobSettings;
import io.reliabilitylab.pipeline.flink.sink.JobVariant;
import io.reliabilitylab.spi.pipeline.LabOptions;
import io.reliabilitylab.spi.pipeline.SourceEndpoint;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.function.UnaryOperator;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * Everything the direct pipeline's job is built from: the source, the warehouse, checkpointing, the
 * restart strategy and parallelism ({@link OrdersJobSettings}).
 *
 * <pre>{@code
 * DirectJobConfig config = DirectJobConfig.builder()
 *     .source(database.endpoint("orders"))
 *     .settings(OrdersJobSettings.builder()
 *         .warehouse(tempDir.resolve("warehouse"))
 *         .checkpointDirectory(tempDir.resolve("checkpoints"))
 *         .build())
 *     .build();
 * }</pre>
 *
 * @param source the MySQL/MariaDB or PostgreSQL table to capture and the CDC account; its password
 *     is never shown by {@link #effectiveConfiguration()}
 * @param serverIdRange the replica server ids the MySQL source's readers use, one per reader
 * @param slotName the replication slot the PostgreSQL source streams from (created by the job when
 *     absent, kept across its restores, dropped by the pipeline at the end)
 * @param serverTimeZone the server's session time zone for snapshot reads
 * @param heartbeatInterval how often the PostgreSQL source emits a heartbeat record carrying its
 *     offset; {@link Duration#ZERO} keeps Flink CDC's default, 30 s
 * @param splitSize rows per snapshot chunk (larger chunks read a big table faster)
 * @param settings what every reference job shares: warehouse, checkpointing, restarts, sinks
 */
@API(status = EXPERIMENTAL)
public record DirectJobConfig(
    SourceEndpoint source,
    String serverIdRange,
    String slotName,
    String serverTimeZone,
    Duration heartbeatInterval,
    int splitSize,
    OrdersJobSettings settings) {

  /** The pipeline option that sets {@link #heartbeatInterval()} in milliseconds. */
  public static final String HEARTBEAT_INTERVAL_OPTION = LabOptions.SOURCE_HEARTBEAT_INTERVAL_MS;

  /** The pipeline option that sets {@link #splitSize()}. */
  public static final String SPLIT_SIZE_OPTION = LabOptions.SOURCE_SNAPSHOT_SPLIT_SIZE;

  /** Rows per snapshot chunk unless {@value #SPLIT_SIZE_OPTION} says otherwise. */
  public static final int DEFAULT_SPLIT_SIZE = 100_000;

  /** The source operator's uid: stable, so that state maps back on restore. */
  public static final String SOURCE_UID = "mysql-cdc-source";

  /** The job name unless the settings name another. */
  public static final String JOB_NAME = "reliability-lab direct pipeline";

  /**
   * How often the binlog client's keep-alive looks for a lost connection (Debezium's {@code
   * connect.keep.alive.interval.ms}, 60 s by default).
   */
  static final long BINLOG_KEEP_ALIVE_INTERVAL_MS = 5_000;

  /**
   * How many checkpoints the PostgreSQL slot's confirmed LSN trails the completed one (Flink CDC's
   * {@code scan.lsn-commit.checkpoints-num-delay}): the WAL of the last few checkpoints stays, so a
   * restore from one of them, not only the latest, finds its changes.
   */
  static final int LSN_COMMIT_DELAY = 3;

  /** A PostgreSQL replication slot's name: lower case, digits and _, at most 63. */
  private static final java.util.regex.Pattern SLOT_NAME =
      java.util.regex.Pattern.compile("[a-z0-9_]{1,63}");

  /** How long the source's change queue waits for records when empty (Debezium's 500 ms). */
  static final long SOURCE_POLL_INTERVAL_MS = 50;

  public DirectJobConfig {
    Objects.requireNonNull(source, "source");
    Objects.requireNonNull(serverIdRange, "serverIdRange");
    Objects.requireNonNull(slotName, "slotName");
    Objects.requireNonNull(heartbeatInterval, "heartbeatInterval");
    if (heartbeatInterval.isNegative()) {
      throw new IllegalArgumentException(
          "heartbeatInterval must be zero (the connector's default) or positive, got "
              + heartbeatInterval);
    }
    Objects.requireNonNull(serverTimeZone, "serverTimeZone");
    if (!SLOT_NAME.matcher(slotName).matches()) {
      throw new IllegalArgumentException(
          "slotName must be 1 to 63 lower-case letters, digits or _, got '" + slotName + "'");
    }
    Objects.requireNonNull(settings, "settings");
    if (settings.variant() == JobVariant.BROKEN_SOURCE_NO_RECONNECT
        && SourceEngine.of(source) == SourceEngine.POSTGRES) {
      throw refused(
          settings.variant(),
          " turns off the MySQL binlog client's keep-alive; PostgreSQL's source fails its task on"
              + " a lost connection instead (use broken-changelog-at-least-once there)");
    }
    if (settings.variant() == JobVariant.BROKEN_SOURCE_COMMITS_READ_POSITION
        && SourceEngine.of(source) != SourceEngine.POSTGRES) {
      throw refused(
          settings.variant(),
          " changes what the PostgreSQL source confirms to its replication slot; the MySQL source"
              + " confirms nothing to the server; run it with --source postgres");
    }
    if (settings.alignTransactions() && SourceEngine.of(source) == SourceEngine.POSTGRES) {
      throw new IllegalArgumentException(
          OrdersJobSettings.TRANSACTIONS_OPTION
              + "=aligned needs the MySQL/MariaDB source's transaction fence, which the"
              + " PostgreSQL source does not have yet; run it on MariaDB (drop --source postgres)");
    }
    if (settings.variant() == JobVariant.BROKEN_DEDUP_LAST_ONLY) {
      throw refused(
          settings.variant(),
          " breaks the broker pipeline's replay deduplication, which the direct pipeline does not"
              + " have; run it with --pipeline broker");
    }
    if (settings.variant() == JobVariant.BROKEN_PUBLISHER_DROPS_UNACKNOWLEDGED
        || settings.variant() == JobVariant.BROKEN_PUBLISHER_RESENDS) {
      throw refused(
          settings.variant(),
          " breaks the broker pipeline's connector, which the direct pipeline does not have; run"
              + " it with --pipeline broker");
    }
    if (settings.variant() == JobVariant.BROKEN_UNDECODABLE_SKIPPED
        || settings.variant() == JobVariant.BROKEN_UNDECODABLE_FAILS) {
      throw refused(
          settings.variant(),
          " breaks the broker pipeline's dead-letter routing, which the direct pipeline does not"
              + " have; run it with --pipeline broker");
    }
    if (splitSize < 1) {
      throw new IllegalArgumentException("splitSize must be at least 1, got " + splitSize);
    }
    if (!serverIdRange.matches("\\d+(-\\d+)?")) {
      throw new IllegalArgumentException(
          "serverIdRange must be a number or a range like 5400-5409, got '" + serverIdRange + "'");
    }
  }

  private static IllegalArgumentException refused(JobVariant variant, String why) {
    return new IllegalArgumentException(JobVariant.OPTION + "=" + variant.text() + why);
  }

  /** Which database the job captures, from the source's JDBC URL. */
  public SourceEngine engine() {
    return SourceEngine.of(source);
  }

  /** A builder with the test-friendly defaults. */
  public static Builder builder() {
    return new Builder();
  }

  /** A builder that starts from this config, to change one setting. */
  public Builder toBuilder() {
    return new Builder(this);
  }

  /**
   * The settings that decide a verdict, for the run record: source, checkpointing, restart
   * strategy, delivery semantics and sinks. No secrets.
   */
  public Map<String, String> effectiveConfiguration() {
    Map<String, String> map = new LinkedHashMap<>();
    map.put("pipeline", "direct");
    map.put("delivery.semantics", "EXACTLY_ONCE");
    map.put("source", source.description());
    if (engine() == SourceEngine.POSTGRES) {
      map.put(
          "source.connector",
          "flink-cdc postgres 3.5.0 (PostgresIncrementalSource, pgoutput, incremental snapshot)");
      map.put("source.startup", "initial");
      map.put("source.slot", slotName);
      map.put("source.lsn-commit.checkpoints-delay", Integer.toString(LSN_COMMIT_DELAY));
      map.put(
          "source.heartbeat-interval-ms",
          heartbeatInterval.isZero()
              ? "30000 (Flink CDC's default)"
              : Long.toString(heartbeatInterval.toMillis()));
    } else {
      map.put("source.connector", "flink-cdc mysql 3.5.0 (MySqlSource, incremental snapshot)");
      map.put("source.startup", "initial");
      map.put("source.binlog.keep-alive-interval-ms", Long.toString(BINLOG_KEEP_ALIVE_INTERVAL_MS));
      map.put("source.server-id", serverIdRange);
    }
    map.put("source.poll-interval-ms", Long.toString(SOURCE_POLL_INTERVAL_MS));
    map.put("source.server-time-zone", serverTimeZone);
    map.put("source.snapshot.split-size", Integer.toString(splitSize));
    map.put("source.user", source.user());
    map.putAll(settings.effectiveConfiguration());
    return map;
  }

  @Override
  public String toString() {
    return "DirectJobConfig" + effectiveConfiguration();
  }

  /** Builds a {@link DirectJobConfig}; the source and the settings' directories have no default. */
  @API(status = EXPERIMENTAL)
  public static final class Builder {
    private @Nullable SourceEndpoint source;
    private String serverIdRange = "5400-5409";
    private String slotName = "srl_direct";
    private String serverTimeZone = "UTC";
    private Duration heartbeatInterval = Duration.ZERO;
    private int splitSize = DEFAULT_SPLIT_SIZE;
    private OrdersJobSettings settings = OrdersJobSettings.builder().jobName(JOB_NAME).build();

    private Builder() {}

    private Builder(DirectJobConfig config) {
      source = config.source;
      serverIdRange = config.serverIdRange;
      slotName = config.slotName;
      serverTimeZone = config.serverTimeZone;
      heartbeatInterval = config.heartbeatInterval;
      splitSize = config.splitSize;
      settings = config.settings;
    }

    /** The table to capture and the CDC account to read it with. */
    public Builder source(SourceEndpoint source) {
      this.source = Objects.requireNonNull(source, "source");
      return this;
    }

    /** Replica server ids, one per source reader; default {@code 5400-5409}. */
    public Builder serverIdRange(String serverIdRange) {
      this.serverIdRange = serverIdRange;
      return this;
    }

    /** The PostgreSQL replication slot; default {@code srl_direct}. */
    public Builder slotName(String slotName) {
      this.slotName = slotName;
      return this;
    }

    /** PostgreSQL heartbeat records; default {@link Duration#ZERO}, Flink CDC's 30 s. */
    public Builder heartbeatInterval(Duration heartbeatInterval) {
      this.heartbeatInterval = heartbeatInterval;
      return this;
    }

    /** Default {@code UTC}. */
    public Builder serverTimeZone(String serverTimeZone) {
      this.serverTimeZone = serverTimeZone;
      return this;
    }

    /** Rows per snapshot chunk; default 100,000 (8,096, Flink CDC's default, is ~5× slower). */
    public Builder splitSize(int splitSize) {
      this.splitSize = splitSize;
      return this;
    }

    /**
     * Warehouse, checkpointing, restarts, sinks; defaults as {@link OrdersJobSettings#builder()}.
     */
    public Builder settings(OrdersJobSettings settings) {
      this.settings = settings;
      return this;
    }

    /** Changes some of the settings, the rest kept. */
    public Builder settings(UnaryOperator<OrdersJobSettings.Builder> change) {
      this.settings = change.apply(settings.toBuilder()).build();
      return this;
    }

    public DirectJobConfig build() {
      if (source == null) {
        throw new IllegalStateException(
            "The direct job needs a source: call source(database.endpoint(table))");
      }
      return new DirectJobConfig(
          source, serverIdRange, slotName, serverTimeZone, heartbeatInterval, splitSize, settings);
    }
  }
}
