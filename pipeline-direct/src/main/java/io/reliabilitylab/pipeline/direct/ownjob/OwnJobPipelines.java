package io.reliabilitylab.pipeline.direct.ownjob;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.reliabilitylab.spi.Named;
import io.reliabilitylab.spi.pipeline.PipelineProvider;
import java.util.Objects;
import java.util.Set;
import org.apiguardian.api.API;

/**
 * Turns a pipeline team's own Flink job into a pipeline the lab runs: the direct pipeline's
 * embedded MariaDB source, MiniCluster (or session cluster), checkpointing and Iceberg tables, with
 * the team's topology or whole job in place of the reference job. Give the provider to the lab
 * yourself (the JUnit extension's {@code forPipeline(provider)}, or the runner's builder); it is
 * not discovered.
 *
 * <pre>{@code
 * @RegisterExtension
 * static final ReliabilityLabExtension lab = ReliabilityLabExtension.forPipeline(
 *     OwnJobPipelines.provider(
 *         "orders-enricher", (env, changes, sinks) -> sinks.writeReferenceSinks(enrich(changes))));
 *
 * RunRecord run = lab.scenario().events(300).inject("savepoint-restore").run();
 * }</pre>
 *
 * <p>A team's job has no fault points compiled in, so it offers every capability of the direct
 * pipeline but {@code FaultPoints}, and runs under every fault that needs none: {@code
 * savepoint-restore} (stop with a savepoint, restore at another parallelism), {@code task-failure}
 * (a TaskManager of the embedded cluster lost), {@code coordinator-failure:cluster-dies} (the
 * cluster lost, the job restored from its retained checkpoint), the network faults on its source
 * link ({@code network-partition}, {@code network-latency}, {@code network-bandwidth}: its source
 * connects through the lab's proxy as the reference job's does), the compaction exercise, and
 * plugin faults that need only job control, table access, savepoints or TaskManagers (for example
 * {@code binlog-connection-kill} of {@code examples/custom-fault}; the built-in {@code
 * source-connection-loss} needs only the source endpoint too). {@code --faults all} picks those.
 * The faults that fire a point inside the job are skipped with the reason when named: {@code
 * task-exception}, {@code checkpoint-failure}, {@code sink-commit-failure}, {@code
 * coordinator-failure}'s default mode (the enumerator throws), {@code task-failure:snapshot-phase},
 * {@code savepoint-restore:older-savepoint} and the pressure exercise; so are the broker faults.
 * The run record's effective configuration names the team's pipeline and says {@code fault-points:
 * off}; checks judge exactly-once delivery.
 */
@API(status = EXPERIMENTAL)
public final class OwnJobPipelines {

  /** The reference pipelines' names, which a team's job cannot take. */
  private static final Set<String> RESERVED = Set.of("direct", "broker");

  private OwnJobPipelines() {}

  /**
   * A pipeline named {@code name} running {@code topology} behind the lab's CDC source.
   *
   * @throws IllegalArgumentException when the name is not kebab-case or is a reference pipeline's
   * @throws NullPointerException when the topology is null
   */
  public static PipelineProvider provider(String name, TeamTopology topology) {
    String checked = checkedName(name);
    Objects.requireNonNull(
        topology,
        "OwnJobPipelines.provider(\""
            + checked
            + "\", null): a topology is required, e.g. (env, changes, sinks) ->"
            + " sinks.writeReferenceSinks(changes)");
    return new TeamPipelineProvider(
        checked,
        "A team's own Flink topology on the lab's CDC source (Flink CDC MySqlSource), writing"
            + " orders_current and orders_changelog; no fault points",
        config -> TeamOrdersJob.onLabSource(checked, config, topology));
  }

  /**
   * A pipeline named {@code name} running the team's whole {@code job}, which reads the source
   * itself.
   *
   * @throws IllegalArgumentException when the name is not kebab-case or is a reference pipeline's
   * @throws NullPointerException when the job is null
   */
  public static PipelineProvider providerForJob(String name, TeamJob job) {
    String checked = checkedName(name);
    Objects.requireNonNull(
        job,
        "OwnJobPipelines.providerForJob(\""
            + checked
            + "\", null): a job is required, e.g. (env, source, sinks) -> ...");
    return new TeamPipelineProvider(
        checked,
        "A team's own Flink job reading the orders table itself, writing orders_current and"
            + " orders_changelog; no fault points",
        config -> TeamOrdersJob.readingSource(checked, config, job));
  }

  private static String checkedName(String name) {
    Objects.requireNonNull(name, "A team's pipeline needs a name, e.g. \"orders-enricher\"");
    if (!Named.isValidName(name)) {
      throw new IllegalArgumentException(
          "A pipeline name is lower-case kebab-case (letters, digits, single dashes), got '"
              + name
              + "'");
    }
    if (RESERVED.contains(name)) {
      throw new IllegalArgumentException(
          "'" + name + "' is a reference pipeline's name; name the team's job after the job");
    }
    return name;
  }
}
