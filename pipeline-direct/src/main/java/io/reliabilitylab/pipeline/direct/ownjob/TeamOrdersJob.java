package io.reliabilitylab.pipeline.direct.ownjob;

import io.reliabilitylab.pipeline.direct.job.DirectJob;
import io.reliabilitylab.pipeline.direct.job.DirectJobConfig;
import io.reliabilitylab.pipeline.flink.job.OrdersJob;
import io.reliabilitylab.pipeline.flink.job.OrdersJobSettings;
import io.reliabilitylab.pipeline.flink.job.OrdersTopology;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * A team's job as the lab runs it: the direct pipeline's job configuration with its fault points
 * off, the lab's environment settings and tables, and the team's topology or whole job in place of
 * the reference topology.
 */
final class TeamOrdersJob implements OrdersJob {

  /** What the team adds to the environment, given the lab's job (for its source) and the sinks. */
  @FunctionalInterface
  private interface Body {
    void build(StreamExecutionEnvironment env, DirectJob lab, SinkTables sinks) throws Exception;
  }

  /**
   * The settings of the lab's source reader, which a team's job reading the source does not use.
   */
  private static final List<String> LAB_READER_SETTINGS =
      List.of(
          "source.startup",
          "source.binlog.keep-alive-interval-ms",
          "source.poll-interval-ms",
          "source.snapshot.split-size");

  private final String pipelineName;
  private final DirectJob lab;
  private final boolean readsSourceItself;
  private final Body body;

  private TeamOrdersJob(String pipelineName, DirectJob lab, boolean readsSourceItself, Body body) {
    this.pipelineName = pipelineName;
    this.lab = lab;
    this.readsSourceItself = readsSourceItself;
    this.body = body;
  }

  /** The team's topology behind the lab's CDC source. */
  static TeamOrdersJob onLabSource(
      String pipelineName, DirectJobConfig config, TeamTopology topology) {
    return new TeamOrdersJob(
        pipelineName,
        labJob(pipelineName, config),
        false,
        (env, lab, sinks) -> topology.build(env, lab.changes(env), sinks));
  }

  /** The team's whole job, reading the source itself. */
  static TeamOrdersJob readingSource(String pipelineName, DirectJobConfig config, TeamJob job) {
    return new TeamOrdersJob(
        pipelineName,
        labJob(pipelineName, config),
        true,
        (env, lab, sinks) -> job.build(env, OrdersSource.of(lab.config()), sinks));
  }

  // No fault points: the team's job has none compiled in, and the reference sinks it may use must
  // not offer the lab points the rest of its job lacks.
  private static DirectJob labJob(String pipelineName, DirectJobConfig config) {
    return DirectJob.create(
        config.toBuilder()
            .settings(
                settings ->
                    settings.faultPoints(false).jobName("reliability-lab team job " + pipelineName))
            .build());
  }

  @Override
  public String name() {
    return lab.name();
  }

  @Override
  public OrdersJobSettings settings() {
    return lab.settings();
  }

  @Override
  public TeamOrdersJob withParallelism(int parallelism) {
    return new TeamOrdersJob(
        pipelineName, lab.withParallelism(parallelism), readsSourceItself, body);
  }

  @Override
  public void build(StreamExecutionEnvironment env) throws Exception {
    lab.createTablesIfAbsent();
    OrdersTopology.configure(env, settings());
    body.build(env, lab, new SinkTables(settings()));
  }

  @Override
  public Map<String, String> effectiveConfiguration() {
    Map<String, String> map = new LinkedHashMap<>(lab.effectiveConfiguration());
    map.put("pipeline", pipelineName);
    map.put(
        "pipeline.job",
        readsSourceItself
            ? "the team's own Flink job, reading the source itself"
            : "the team's own Flink topology on the lab's CDC source");
    if (readsSourceItself) {
      map.put("source.connector", "the team's own");
      map.keySet().removeAll(LAB_READER_SETTINGS);
    }
    map.put(
        "sink",
        "the team's job: sinks of its own or the lab's reference sinks; the sink settings below"
            + " are the reference sinks'");
    map.put(
        "fault-points",
        "off: the team's job has none compiled in, so faults that need them are skipped");
    return map;
  }

  @Override
  public String toString() {
    return "TeamOrdersJob[" + pipelineName + ", " + lab.config().source().description() + "]";
  }
}
