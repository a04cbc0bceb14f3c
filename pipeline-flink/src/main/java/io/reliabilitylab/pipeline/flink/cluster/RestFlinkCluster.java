package io.reliabilitylab.pipeline.flink.cluster;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.reliabilitylab.spi.pipeline.CheckpointInfo;
import io.reliabilitylab.spi.pipeline.JobFailure;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.client.deployment.StandaloneClusterId;
import org.apache.flink.client.program.rest.RestClusterClient;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.PipelineOptionsInternal;
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.configuration.StateRecoveryOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.core.execution.SavepointFormatType;
import org.apache.flink.runtime.checkpoint.CheckpointStatsStatus;
import org.apache.flink.runtime.client.JobStatusMessage;
import org.apache.flink.runtime.execution.ExecutionState;
import org.apache.flink.runtime.jobgraph.JobVertexID;
import org.apache.flink.runtime.rest.messages.ClusterConfigurationInfoHeaders;
import org.apache.flink.runtime.rest.messages.ConfigurationInfo;
import org.apache.flink.runtime.rest.messages.ConfigurationInfoEntry;
import org.apache.flink.runtime.rest.messages.EmptyMessageParameters;
import org.apache.flink.runtime.rest.messages.EmptyRequestBody;
import org.apache.flink.runtime.rest.messages.JobExceptionsHeaders;
import org.apache.flink.runtime.rest.messages.JobExceptionsInfoWithHistory;
import org.apache.flink.runtime.rest.messages.JobIDPathParameter;
import org.apache.flink.runtime.rest.messages.JobMessageParameters;
import org.apache.flink.runtime.rest.messages.JobVertexDetailsHeaders;
import org.apache.flink.runtime.rest.messages.JobVertexDetailsInfo;
import org.apache.flink.runtime.rest.messages.JobVertexIdPathParameter;
import org.apache.flink.runtime.rest.messages.JobVertexMessageParameters;
import org.apache.flink.runtime.rest.messages.MessagePathParameter;
import org.apache.flink.runtime.rest.messages.MessageQueryParameter;
import org.apache.flink.runtime.rest.messages.checkpoints.CheckpointStatistics;
import org.apache.flink.runtime.rest.messages.checkpoints.CheckpointingStatistics;
import org.apache.flink.runtime.rest.messages.checkpoints.CheckpointingStatisticsHeaders;
import org.apache.flink.runtime.rest.messages.job.JobDetailsHeaders;
import org.apache.flink.runtime.rest.messages.job.JobDetailsInfo;
import org.apache.flink.runtime.rest.messages.job.JobExceptionsMessageParameters;
import org.apache.flink.runtime.rest.messages.job.SubtaskExecutionAttemptDetailsInfo;
import org.apache.flink.runtime.rest.messages.job.metrics.AggregatedMetric;
import org.apache.flink.runtime.rest.messages.job.metrics.AggregatedSubtaskMetricsHeaders;
import org.apache.flink.runtime.rest.messages.job.metrics.AggregatedSubtaskMetricsParameters;
import org.apache.flink.runtime.rest.messages.job.metrics.JobMetricsHeaders;
import org.apache.flink.runtime.rest.messages.job.metrics.JobMetricsMessageParameters;
import org.apache.flink.runtime.rest.messages.job.metrics.Metric;
import org.apache.flink.runtime.rest.messages.job.metrics.MetricCollectionResponseBody;
import org.apache.flink.runtime.rest.messages.job.metrics.MetricsAggregationParameter;
import org.apache.flink.runtime.rest.messages.job.metrics.MetricsFilterParameter;
import org.apache.flink.runtime.rest.messages.taskmanager.TaskManagerInfo;
import org.apache.flink.runtime.rest.messages.taskmanager.TaskManagersHeaders;
import org.apache.flink.runtime.rest.messages.taskmanager.TaskManagersInfo;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A Flink session cluster reached by its REST address: jobs are built on a remote environment and
 * watched through the REST API. The MiniCluster runner uses the same code against its own endpoint.
 *
 * <pre>{@code
 * try (FlinkCluster cluster = RestFlinkCluster.connect(URI.create("http://flink:8081"))) {
 *   JobID id = cluster.submit(job); // any FlinkJob: DirectJob, BrokerJob, yours
 * }
 * }</pre>
 */
@API(status = EXPERIMENTAL)
public class RestFlinkCluster implements FlinkCluster {

  private static final Logger LOG = LoggerFactory.getLogger(RestFlinkCluster.class);
  private static final Duration POLL = Duration.ofMillis(50);
  private static final long REQUEST_TIMEOUT_SECONDS = 30;
  // What the REST API names as the TaskManager of a subtask that is not deployed.
  private static final String UNASSIGNED = "(unassigned)";

  private final URI restAddress;
  private final Configuration clientConfiguration;
  private final RestClusterClient<StandaloneClusterId> client;
  private final List<String> jars;

  protected RestFlinkCluster(URI restAddress, Configuration clientConfiguration, List<String> jars)
      throws Exception {
    this.restAddress = restAddress;
    this.clientConfiguration = clientConfiguration;
    this.jars = List.copyOf(jars);
    Configuration configuration = new Configuration(clientConfiguration);
    configuration.set(RestOptions.ADDRESS, restAddress.getHost());
    configuration.set(RestOptions.PORT, restAddress.getPort());
    this.client = new RestClusterClient<>(configuration, StandaloneClusterId.getInstance());
  }

  /**
   * Connects to a session cluster. {@code jars} are shipped with each job (the lab's jar with its
   * dependencies); a cluster in this JVM needs none.
   */
  public static RestFlinkCluster connect(URI restAddress, String... jars) throws Exception {
    Objects.requireNonNull(restAddress, "restAddress");
    if (restAddress.getHost() == null || restAddress.getPort() < 0) {
      throw new IllegalArgumentException(
          "A Flink REST address needs a host and a port, e.g. http://localhost:8081, got "
              + restAddress);
    }
    return new RestFlinkCluster(restAddress, new Configuration(), List.of(jars));
  }

  @Override
  public URI restAddress() {
    return restAddress;
  }

  /** The REST client, for requests this class does not wrap. */
  public RestClusterClient<StandaloneClusterId> client() {
    return client;
  }

  @Override
  public JobID submit(FlinkJob job, @Nullable String restorePath, @Nullable JobID jobId)
      throws Exception {
    Objects.requireNonNull(job, "job");
    Configuration configuration = new Configuration(clientConfiguration);
    if (restorePath != null) {
      configuration.set(StateRecoveryOptions.SAVEPOINT_PATH, restorePath);
    }
    if (jobId != null) {
      // what application mode does: the JobGraph gets this id instead of a random one
      configuration.set(PipelineOptionsInternal.PIPELINE_FIXED_JOB_ID, jobId.toHexString());
    }
    URI target = restAddress();
    StreamExecutionEnvironment env =
        StreamExecutionEnvironment.createRemoteEnvironment(
            target.getHost(), target.getPort(), configuration, jars.toArray(String[]::new));
    job.build(env);
    JobClient jobClient = env.executeAsync(job.name());
    LOG.info("Submitted job '{}' as {} to {}", job.name(), jobClient.getJobID(), target);
    return jobClient.getJobID();
  }

  @Override
  public JobStatus status(JobID job) throws Exception {
    return client.getJobStatus(job).get(REQUEST_TIMEOUT_SECONDS, TimeUnit.SECONDS);
  }

  @Override
  public long restartCount(JobID job) throws Exception {
    JobMetricsMessageParameters parameters = new JobMetricsMessageParameters();
    parameters.jobPathParameter.resolve(job);
    parameters.metricsFilterParameter.resolve(List.of("numRestarts"));
    MetricCollectionResponseBody body =
        client
            .sendRequest(
                JobMetricsHeaders.getInstance(), parameters, EmptyRequestBody.getInstance())
            .get(REQUEST_TIMEOUT_SECONDS, TimeUnit.SECONDS);
    for (Metric metric : body.getMetrics()) {
      if ("numRestarts".equals(metric.getId()) && metric.getValue() != null) {
        return Long.parseLong(metric.getValue());
      }
    }
    // The metric fetcher has not seen the job yet: count restarts from the exception history.
    return exceptionHistory(job).size();
  }

  @Override
  public List<JobFailure> exceptionHistory(JobID job) throws Exception {
    JobExceptionsMessageParameters parameters = new JobExceptionsMessageParameters();
    parameters.jobPathParameter.resolve(job);
    JobExceptionsInfoWithHistory body =
        client
            .sendRequest(
                JobExceptionsHeaders.getInstance(), parameters, EmptyRequestBody.getInstance())
            .get(REQUEST_TIMEOUT_SECONDS, TimeUnit.SECONDS);
    List<JobFailure> failures = new ArrayList<>();
    for (JobExceptionsInfoWithHistory.RootExceptionInfo entry :
        body.getExceptionHistory().getEntries()) {
      failures.add(
          new JobFailure(
              Instant.ofEpochMilli(entry.getTimestamp()),
              entry.getExceptionName(),
              entry.getStacktrace(),
              entry.getTaskName(),
              entry.getEndpoint(),
              entry.getTaskName() == null));
    }
    failures.sort(Comparator.comparing(JobFailure::at));
    return failures;
  }

  @Override
  public List<CheckpointInfo> checkpoints(JobID job) throws Exception {
    CheckpointingStatisticsHeaders headers = CheckpointingStatisticsHeaders.getInstance();
    JobMessageParameters parameters = headers.getUnresolvedMessageParameters();
    parameters.jobPathParameter.resolve(job);
    CheckpointingStatistics body =
        client
            .sendRequest(headers, parameters, EmptyRequestBody.getInstance())
            .get(REQUEST_TIMEOUT_SECONDS, TimeUnit.SECONDS);
    List<CheckpointInfo> checkpoints = new ArrayList<>();
    for (CheckpointStatistics stats : body.getHistory()) {
      checkpoints.add(toInfo(stats));
    }
    checkpoints.sort(Comparator.comparingLong(CheckpointInfo::id));
    return checkpoints;
  }

  private static CheckpointInfo toInfo(CheckpointStatistics stats) {
    CheckpointStatsStatus status = stats.getStatus();
    Instant triggered = Instant.ofEpochMilli(stats.getTriggerTimestamp());
    Instant finished =
        status == CheckpointStatsStatus.IN_PROGRESS || stats.getLatestAckTimestamp() <= 0
            ? null
            : Instant.ofEpochMilli(stats.getLatestAckTimestamp());
    String externalPath = null;
    String failure = null;
    if (stats instanceof CheckpointStatistics.CompletedCheckpointStatistics completed) {
      externalPath = completed.getExternalPath();
    } else if (stats instanceof CheckpointStatistics.FailedCheckpointStatistics failed) {
      failure = failed.getFailureMessage();
      finished = Instant.ofEpochMilli(failed.getFailureTimestamp());
    }
    return new CheckpointInfo(
        stats.getId(),
        status.name(),
        triggered,
        finished,
        externalPath,
        failure,
        null,
        stats.isSavepoint());
  }

  @Override
  public void cancel(JobID job) throws Exception {
    client.cancel(job).get(REQUEST_TIMEOUT_SECONDS, TimeUnit.SECONDS);
  }

  @Override
  public String stopWithSavepoint(JobID job, Path directory) throws Exception {
    String target = directory.toAbsolutePath().normalize().toUri().toString();
    return client
        .stopWithSavepoint(job, false, target, SavepointFormatType.CANONICAL)
        .get(2 * REQUEST_TIMEOUT_SECONDS, TimeUnit.SECONDS);
  }

  @Override
  public String triggerSavepoint(JobID job, Path directory) throws Exception {
    String target = directory.toAbsolutePath().normalize().toUri().toString();
    // the client posts /jobs/:id/savepoints with cancel-job false and polls the trigger
    return client
        .triggerSavepoint(job, target, SavepointFormatType.CANONICAL)
        .get(2 * REQUEST_TIMEOUT_SECONDS, TimeUnit.SECONDS);
  }

  @Override
  public void awaitRunning(JobID job, Duration timeout) throws Exception {
    long deadline = System.nanoTime() + timeout.toNanos();
    String last = "nothing";
    while (System.nanoTime() < deadline) {
      JobStatus status = status(job);
      if (status.isGloballyTerminalState()) {
        throw new IllegalStateException(
            "Job " + job + " ended as " + status + " while the lab waited for it to run");
      }
      if (status == JobStatus.RUNNING) {
        JobDetailsInfo details = details(job);
        Collection<JobDetailsInfo.JobVertexDetailsInfo> vertices = details.getJobVertexInfos();
        boolean allRunning =
            vertices.stream()
                .allMatch(
                    v ->
                        v.getExecutionState() == ExecutionState.RUNNING
                            || v.getExecutionState() == ExecutionState.FINISHED);
        if (allRunning) {
          return;
        }
        last = "job RUNNING, tasks not all running";
      } else {
        last = "job " + status;
      }
      Thread.sleep(POLL.toMillis());
    }
    throw FlinkCluster.timeout("job " + job + " to run", timeout, last);
  }

  /**
   * The ids (resource ids) of the TaskManagers registered with the cluster's ResourceManager, as
   * its REST API lists them ({@code /taskmanagers}).
   */
  public Set<String> registeredTaskManagers() throws Exception {
    TaskManagersInfo body =
        client
            .sendRequest(
                TaskManagersHeaders.getInstance(),
                EmptyMessageParameters.getInstance(),
                EmptyRequestBody.getInstance())
            .get(REQUEST_TIMEOUT_SECONDS, TimeUnit.SECONDS);
    Set<String> ids = new TreeSet<>();
    for (TaskManagerInfo info : body.getTaskManagerInfos()) {
      ids.add(info.getResourceId().toString());
    }
    return ids;
  }

  /**
   * The ids of the TaskManagers that hold a current, not yet terminal execution of one of the job's
   * tasks ({@code /jobs/:id/vertices/:vid}, each subtask's {@code taskmanager-id}). A TaskManager
   * that was lost may still be named here until the job has failed its tasks; intersect with {@link
   * #registeredTaskManagers()} for the live ones.
   */
  public Set<String> taskManagersOf(JobID job) throws Exception {
    Set<String> ids = new TreeSet<>();
    for (JobDetailsInfo.JobVertexDetailsInfo vertex : details(job).getJobVertexInfos()) {
      JobVertexDetailsHeaders headers = JobVertexDetailsHeaders.getInstance();
      JobVertexMessageParameters parameters = headers.getUnresolvedMessageParameters();
      parameters.jobPathParameter.resolve(job);
      parameters.jobVertexIdPathParameter.resolve(vertex.getJobVertexID());
      JobVertexDetailsInfo info =
          client
              .sendRequest(headers, parameters, EmptyRequestBody.getInstance())
              .get(REQUEST_TIMEOUT_SECONDS, TimeUnit.SECONDS);
      for (SubtaskExecutionAttemptDetailsInfo subtask : info.getSubtasks()) {
        if (!subtask.getStatus().isTerminal() && !UNASSIGNED.equals(subtask.getTaskmanagerId())) {
          ids.add(subtask.getTaskmanagerId());
        }
      }
    }
    return ids;
  }

  /** The cluster's configuration as its JobManager reports it ({@code /jobmanager/config}). */
  public Map<String, String> clusterConfiguration() throws Exception {
    ConfigurationInfo body =
        client
            .sendRequest(
                ClusterConfigurationInfoHeaders.getInstance(),
                EmptyMessageParameters.getInstance(),
                EmptyRequestBody.getInstance())
            .get(REQUEST_TIMEOUT_SECONDS, TimeUnit.SECONDS);
    Map<String, String> settings = new LinkedHashMap<>();
    for (ConfigurationInfoEntry entry : body) {
      settings.put(entry.getKey(), entry.getValue());
    }
    return settings;
  }

  /**
   * The sum over all subtasks of an operator metric, e.g. a counter an operator registered as
   * {@code replaysDropped}: every metric whose id ends in {@code .<name>}, in every vertex of the
   * job. Flink resets operator metrics when a task restarts. Zero when no operator has it (yet).
   */
  public long operatorMetricSum(JobID job, String name) throws Exception {
    long sum = 0;
    for (JobDetailsInfo.JobVertexDetailsInfo vertex : details(job).getJobVertexInfos()) {
      AggregatedSubtaskMetricsHeaders headers = AggregatedSubtaskMetricsHeaders.getInstance();
      AggregatedSubtaskMetricsParameters available =
          vertexMetrics(headers, job, vertex.getJobVertexID(), List.of());
      List<String> ids = new ArrayList<>();
      for (AggregatedMetric metric :
          client
              .sendRequest(headers, available, EmptyRequestBody.getInstance())
              .get(REQUEST_TIMEOUT_SECONDS, TimeUnit.SECONDS)
              .getMetrics()) {
        if (metric.getId().endsWith("." + name)) {
          ids.add(metric.getId());
        }
      }
      if (ids.isEmpty()) {
        continue;
      }
      AggregatedSubtaskMetricsParameters wanted =
          vertexMetrics(headers, job, vertex.getJobVertexID(), ids);
      for (AggregatedMetric metric :
          client
              .sendRequest(headers, wanted, EmptyRequestBody.getInstance())
              .get(REQUEST_TIMEOUT_SECONDS, TimeUnit.SECONDS)
              .getMetrics()) {
        Double value = metric.getSum();
        if (value != null) {
          sum += Math.round(value);
        }
      }
    }
    return sum;
  }

  // The parameters' fields are private in Flink 1.20: they are resolved by their types.
  private static AggregatedSubtaskMetricsParameters vertexMetrics(
      AggregatedSubtaskMetricsHeaders headers, JobID job, JobVertexID vertex, List<String> ids) {
    AggregatedSubtaskMetricsParameters parameters = headers.getUnresolvedMessageParameters();
    for (MessagePathParameter<?> path : parameters.getPathParameters()) {
      if (path instanceof JobIDPathParameter jobId) {
        jobId.resolve(job);
      } else if (path instanceof JobVertexIdPathParameter vertexId) {
        vertexId.resolve(vertex);
      }
    }
    if (!ids.isEmpty()) {
      for (MessageQueryParameter<?> query : parameters.getQueryParameters()) {
        if (query instanceof MetricsFilterParameter filter) {
          filter.resolve(ids);
        } else if (query instanceof MetricsAggregationParameter aggregation) {
          aggregation.resolve(List.of(MetricsAggregationParameter.AggregationMode.SUM));
        }
      }
    }
    return parameters;
  }

  private JobDetailsInfo details(JobID job) throws Exception {
    JobDetailsHeaders headers = JobDetailsHeaders.getInstance();
    JobMessageParameters parameters = headers.getUnresolvedMessageParameters();
    parameters.jobPathParameter.resolve(job);
    return client
        .sendRequest(headers, parameters, EmptyRequestBody.getInstance())
        .get(REQUEST_TIMEOUT_SECONDS, TimeUnit.SECONDS);
  }

  @Override
  public CheckpointInfo awaitCompletedCheckpointAfter(JobID job, Instant after, Duration timeout)
      throws Exception {
    long deadline = System.nanoTime() + timeout.toNanos();
    String last = "no checkpoint";
    while (System.nanoTime() < deadline) {
      List<CheckpointInfo> checkpoints = checkpoints(job);
      for (CheckpointInfo checkpoint : checkpoints) {
        if (checkpoint.completed()
            && !checkpoint.savepoint()
            && !checkpoint.triggeredAt().isBefore(after)) {
          return checkpoint;
        }
      }
      if (!checkpoints.isEmpty()) {
        CheckpointInfo newest = checkpoints.get(checkpoints.size() - 1);
        last = "checkpoint " + newest.id() + " " + newest.status();
      }
      JobStatus status = status(job);
      if (status.isGloballyTerminalState()) {
        throw new IllegalStateException(
            "Job " + job + " ended as " + status + " while the lab waited for a checkpoint");
      }
      Thread.sleep(POLL.toMillis());
    }
    throw FlinkCluster.timeout(
        "a checkpoint of job " + job + " triggered after " + after, timeout, last);
  }

  /**
   * What keeps a cluster the lab started from being as good as new for the next job; empty when
   * nothing does: exactly the TaskManagers in {@code live} registered, no job still running, every
   * slot free.
   */
  protected String unhealthy(Set<String> live) throws Exception {
    List<TaskManagerInfo> registered =
        List.copyOf(
            client
                .sendRequest(
                    TaskManagersHeaders.getInstance(),
                    EmptyMessageParameters.getInstance(),
                    EmptyRequestBody.getInstance())
                .get(REQUEST_TIMEOUT_SECONDS, TimeUnit.SECONDS)
                .getTaskManagerInfos());
    Set<String> ids = new TreeSet<>();
    registered.forEach(info -> ids.add(info.getResourceId().toString()));
    if (!ids.equals(live)) {
      return "registered TaskManagers " + ids + ", live ones " + live;
    }
    for (JobStatusMessage job : client.listJobs().get(REQUEST_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
      if (!job.getJobState().isGloballyTerminalState()) {
        return "job " + job.getJobId() + " '" + job.getJobName() + "' is " + job.getJobState();
      }
    }
    for (TaskManagerInfo info : registered) {
      if (info.getNumberAvailableSlots() != info.getNumberSlots()) {
        return "TaskManager " + info.getResourceId() + " has slots in use";
      }
    }
    return "";
  }

  @Override
  public void close() {
    client.close();
  }
}
