package io.reliabilitylab.pipeline.direct.ownjob;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.reliabilitylab.pipeline.flink.envelope.ChangeEnvelope;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apiguardian.api.API;

/**
 * A pipeline team's topology between the lab's CDC stream and the Iceberg tables the lab reads: the
 * lab adds the source, the team adds everything after it.
 *
 * <pre>{@code
 * TeamTopology enricher =
 *     (env, changes, sinks) -> sinks.writeReferenceSinks(changes.map(new Enrich()).uid("enrich"));
 * }</pre>
 *
 * <p>Give each stateful operator a stable {@code uid}: the lab stops the job with a savepoint and
 * restores it at another parallelism.
 */
@API(status = EXPERIMENTAL)
@FunctionalInterface
public interface TeamTopology {

  /**
   * Adds the team's operators and sinks behind {@code changes}. Called in the lab's JVM whenever
   * the job is submitted, also on a restore.
   *
   * @param env the job's environment, with the lab's checkpointing (exactly once), restart strategy
   *     and parallelism set
   * @param changes the lab's CDC stream: Flink CDC's {@code MySqlSource} over the {@code orders}
   *     table (snapshot, then binlog), operator uid {@code mysql-cdc-source}
   * @param sinks the tables the lab reads, their schemas, and the lab's reference sinks
   */
  void build(StreamExecutionEnvironment env, DataStream<ChangeEnvelope> changes, SinkTables sinks)
      throws Exception;
}
