package io.reliabilitylab.pipeline.direct.ownjob;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apiguardian.api.API;

/**
 * A pipeline team's whole job, built against the {@code orders} table: it reads the source itself
 * and writes the Iceberg tables the lab reads.
 *
 * <p>The lab counts the job as streaming once its binlog reader is connected to the source with
 * {@link OrdersSource#credentials()} (a {@code Binlog Dump} thread of that account), as it does for
 * the reference job: a job that reads the source another way never starts streaming in the lab's
 * eyes and fails its start. Give each stateful operator a stable {@code uid}.
 *
 * <pre>{@code
 * TeamJob job = (env, source, sinks) -> {
 *   MySqlSource<Order> orders = MySqlSource.<Order>builder()
 *       .hostname(source.host()).port(source.port())
 *       .databaseList(source.database()).tableList(source.qualifiedTable())
 *       .username(source.credentials().user()).password(source.credentials().revealPassword())
 *       .serverId(source.serverIdRange())
 *       ...
 * };
 * }</pre>
 */
@API(status = EXPERIMENTAL)
@FunctionalInterface
public interface TeamJob {

  /**
   * Adds the team's source, operators and sinks to {@code env}. Called in the lab's JVM whenever
   * the job is submitted, also on a restore.
   *
   * @param env the job's environment, with the lab's checkpointing (exactly once), restart strategy
   *     and parallelism set
   * @param source where the {@code orders} table is and the CDC account to read it with
   * @param sinks the tables the lab reads, their schemas, and the lab's reference sinks
   */
  void build(StreamExecutionEnvironment env, OrdersSource source, SinkTables sinks)
      throws Exception;
}
