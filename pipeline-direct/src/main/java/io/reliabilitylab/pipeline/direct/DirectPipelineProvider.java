package io.reliabilitylab.pipeline.direct;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;
import static org.apiguardian.api.API.Status.INTERNAL;

import com.google.auto.service.AutoService;
import io.reliabilitylab.pipeline.direct.job.DirectJob;
import io.reliabilitylab.pipeline.direct.job.DirectJobConfig;
import io.reliabilitylab.pipeline.flink.FlinkClusters;
import io.reliabilitylab.pipeline.flink.FlinkPipeline;
import io.reliabilitylab.pipeline.flink.PipelineProxies;
import io.reliabilitylab.pipeline.flink.cluster.FlinkCluster;
import io.reliabilitylab.pipeline.flink.job.JobOptions;
import io.reliabilitylab.pipeline.flink.job.OrdersJob;
import io.reliabilitylab.source.mysql.TransactionFence;
import io.reliabilitylab.source.postgres.ReplicationSlots;
import io.reliabilitylab.spi.pipeline.LabOptions;
import io.reliabilitylab.spi.pipeline.PipelineCapability;
import io.reliabilitylab.spi.pipeline.PipelineConfig;
import io.reliabilitylab.spi.pipeline.PipelineProvider;
import io.reliabilitylab.spi.pipeline.PipelineUnderTest;
import io.reliabilitylab.spi.pipeline.ReplicationSlotAccess;
import io.reliabilitylab.spi.pipeline.SnapshotSplits;
import io.reliabilitylab.spi.pipeline.SourceHeartbeats;
import io.reliabilitylab.spi.pipeline.SourceNetworkLink;
import java.time.Duration;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import org.apache.flink.api.common.JobID;
import org.apiguardian.api.API;

/**
 * The {@code direct} reference pipeline: MySQL/MariaDB binlog → Flink CDC → Flink → Iceberg {@code
 * orders_current} (upsert) and {@code orders_changelog} (append). Runs on an embedded MiniCluster,
 * on a cluster of processes ({@code flink.cluster=processes…}) or on the session cluster {@code
 * flink.rest-address} names.
 */
@API(status = EXPERIMENTAL)
@AutoService(PipelineProvider.class)
public final class DirectPipelineProvider implements PipelineProvider {

  /** How long start() waits for the job to run and its change-log reader to connect. */
  private static final Duration START_TIMEOUT = Duration.ofSeconds(60);

  /** How long the job's fault points in other JVMs have to answer through their channel. */
  private static final Duration CHANNEL_TIMEOUT = Duration.ofSeconds(10);

  /**
   * How often the transaction fence writes: the longest an aligned job holds the last transaction
   * of a burst before it knows the transaction complete.
   */
  static final Duration FENCE_INTERVAL = Duration.ofMillis(100);

  @Override
  public String name() {
    return "direct";
  }

  @Override
  public String description() {
    return "MySQL/MariaDB binlog or PostgreSQL pgoutput -> Flink CDC -> Flink -> Iceberg orders_current (upsert) and"
        + " orders_changelog (append), exactly-once";
  }

  @Override
  public Set<String> requiredOptions() {
    return JobOptions.REQUIRED;
  }

  @Override
  public Set<String> optionalOptions() {
    Set<String> options = new java.util.TreeSet<>(JobOptions.OPTIONAL);
    options.add(DirectJobConfig.HEARTBEAT_INTERVAL_OPTION);
    options.add(DirectJobConfig.SPLIT_SIZE_OPTION);
    return Set.copyOf(options);
  }

  /**
   * What a Flink pipeline offers on its embedded MiniCluster, and the proxied link to its source
   * (which a scenario gets by setting {@value LabOptions#NETWORK_PROXY}, as the network faults'
   * variants do).
   */
  @Override
  public Set<Class<? extends PipelineCapability>> capabilities() {
    Set<Class<? extends PipelineCapability>> offered =
        new HashSet<>(FlinkPipeline.EMBEDDED_CAPABILITIES);
    offered.add(SourceNetworkLink.class);
    offered.add(SnapshotSplits.class);
    return Set.copyOf(offered);
  }

  @Override
  public Set<Class<? extends PipelineCapability>> capabilities(Map<String, String> options) {
    Set<Class<? extends PipelineCapability>> offered =
        new HashSet<>(FlinkClusters.capabilities(FlinkPipeline.EMBEDDED_CAPABILITIES, options));
    offered.add(SourceNetworkLink.class);
    offered.add(SnapshotSplits.class);
    if (!LabOptions.POSTGRESQL.equals(options.get(LabOptions.SOURCE_ENGINE))) {
      return Set.copyOf(offered);
    }
    // on PostgreSQL the job streams through a slot of its own (DirectPipeline), and emits
    // heartbeats at the interval the options set
    Set<Class<? extends PipelineCapability>> withSlot = new HashSet<>(offered);
    withSlot.add(ReplicationSlotAccess.class);
    if (options.containsKey(LabOptions.SOURCE_HEARTBEAT_INTERVAL_MS)) {
      withSlot.add(SourceHeartbeats.class);
    }
    return Set.copyOf(withSlot);
  }

  @Override
  public PipelineUnderTest start(PipelineConfig config) throws Exception {
    return start(name(), config, DirectJob::create);
  }

  /**
   * Starts, as pipeline {@code pipelineName}, the job {@code jobOf} makes of this pipeline's job
   * configuration (its source, warehouse and checkpointing, read from the options): the reference
   * job, or a team's own job on the same source and tables ({@code ownjob}).
   */
  @API(status = INTERNAL)
  public PipelineUnderTest start(
      String pipelineName, PipelineConfig config, Function<DirectJobConfig, OrdersJob> jobOf)
      throws Exception {
    for (String key : requiredOptions()) {
      if (config.option(key).isEmpty()) {
        throw new IllegalArgumentException(
            "The "
                + pipelineName
                + " pipeline needs option '"
                + key
                + "'; required: "
                + requiredOptions());
      }
    }
    // the job reaches its source through the lab's proxy when a network fault needs the link
    PipelineProxies proxies = PipelineProxies.forSource(config);
    FlinkCluster cluster = null;
    TransactionFence fence = null;
    DirectPipeline pipeline = null;
    try {
      // inside the try: an option that does not parse closes the proxy with the rest
      DirectJobConfig jobConfig = jobConfig(config, proxies);
      if (jobConfig.settings().alignTransactions()) {
        // before the job: its aligner releases a transaction once something follows it. To the
        // server itself, not through the proxy: its beats would pass for the job's connections
        fence = TransactionFence.start(config.source(), FENCE_INTERVAL);
      }
      cluster = FlinkClusters.start(config);
      OrdersJob job = jobOf.apply(jobConfig);
      StreamReaders readers = StreamReaders.of(jobConfig);
      readers.beforeSubmit();
      JobID jobId = cluster.submit(job);
      pipeline = new DirectPipeline(pipelineName, cluster, job, jobId, config, readers, fence);
      pipeline.routedThrough(proxies);
      // the one moment a snapshot-phase fault can still be armed: submitted, its first element
      // held until the listener returns
      pipeline.jobSubmitted(config.onJobSubmitted());
      pipeline.awaitStreaming(START_TIMEOUT);
      pipeline.verifyFaultChannel(CHANNEL_TIMEOUT);
      return pipeline;
    } catch (Exception | Error e) {
      // The pipeline, once built, cancels its job and stops the cluster it started; a team's job
      // may also fail with an Error (a class it lacks), and a failure to stop never hides why.
      try {
        if (pipeline != null) {
          pipeline.close();
        } else {
          if (cluster != null) {
            cluster.close();
          }
          if (fence != null) {
            fence.close();
          }
          proxies.close();
        }
      } catch (Exception stopping) {
        e.addSuppressed(stopping);
      }
      throw e;
    }
  }

  static DirectJobConfig jobConfig(PipelineConfig config) {
    return jobConfig(config, PipelineProxies.none());
  }

  /** The job's configuration; its source connections go through the source proxy if any. */
  static DirectJobConfig jobConfig(PipelineConfig config, PipelineProxies proxies) {
    DirectJobConfig.Builder builder = DirectJobConfig.builder();
    config
        .option(DirectJobConfig.HEARTBEAT_INTERVAL_OPTION)
        .ifPresent(ms -> builder.heartbeatInterval(Duration.ofMillis(Long.parseLong(ms.strip()))));
    return builder
        .splitSize(splitSize(config))
        .source(proxies.connectorSource(config.source()))
        // a slot per pipeline: kept by the job's restores, dropped when the pipeline ends
        .slotName(ReplicationSlots.newName("srl_direct"))
        .settings(JobOptions.settings(config, DirectJobConfig.JOB_NAME))
        .build();
  }

  /** Rows per snapshot chunk: the option's, else the job's default; a bad value in one line. */
  static int splitSize(PipelineConfig config) {
    return splitSize(config.option(DirectJobConfig.SPLIT_SIZE_OPTION));
  }

  static int splitSize(Optional<String> option) {
    if (option.isEmpty()) {
      return DirectJobConfig.DEFAULT_SPLIT_SIZE;
    }
    try {
      int rows = Integer.parseInt(option.get().strip());
      if (rows >= 1) {
        return rows;
      }
    } catch (NumberFormatException e) {
      // refused below
    }
    throw new IllegalArgumentException(
        "Pipeline option "
            + DirectJobConfig.SPLIT_SIZE_OPTION
            + "='"
            + option.get()
            + "' is not a row count; give a whole number of at least 1, e.g. "
            + DirectJobConfig.SPLIT_SIZE_OPTION
            + "=1000");
  }
}
