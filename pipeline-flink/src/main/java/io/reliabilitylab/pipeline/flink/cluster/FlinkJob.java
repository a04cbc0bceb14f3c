package io.reliabilitylab.pipeline.flink.cluster;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apiguardian.api.API;

/** A streaming job that can be built on any environment: the cluster decides where it runs. */
@API(status = EXPERIMENTAL)
public interface FlinkJob {

  /** The job's name, as Flink shows it. */
  String name();

  /** Adds the job's configuration and topology to an environment. */
  void build(StreamExecutionEnvironment environment) throws Exception;
}
