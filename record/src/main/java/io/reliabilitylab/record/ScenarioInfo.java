package io.reliabilitylab.record;

import static org.apiguardian.api.API.Status.STABLE;

import io.reliabilitylab.spi.secret.Redactor;
import java.util.Objects;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * What was run: the pipeline, the scenario and its variant, the workload's seed and size, the
 * broker names when the pipeline has a broker, and the known upstream hazard the scenario is
 * expected to expose, if any.
 *
 * <p>{@code ScenarioInfo.of("broker", "poison-dlq", 304, 12, 2).withBroker("cdc.orders",
 * "cdc.orders.dlq", "lab-304")}
 *
 * @param pipeline the pipeline's name, e.g. {@code direct} or {@code broker}
 * @param name the scenario's name, usually the fault's, e.g. {@code poison-dlq}
 * @param variant a variant of the scenario, e.g. {@code snapshot-phase}
 * @param seed the workload's seed
 * @param baselineEvents events generated before the fault
 * @param postFaultEvents events generated after recovery
 * @param workloadDigest SHA-256 of the generated workload, which the same seed reproduces
 * @param topic the main topic, for a pipeline with a broker
 * @param dlqTopic the dead-letter topic, for a pipeline with one
 * @param consumerGroup the consumer group whose offsets the linkage records show
 * @param knownHazard null, or the open upstream defect this scenario reproduces (e.g. {@code
 *     apache/iceberg#10892: silent data loss restoring from an older savepoint}): its checks are
 *     expected to fail, and a suite reports that as the hazard detected, see {@link SuiteSummary}
 */
@API(status = STABLE)
public record ScenarioInfo(
    String pipeline,
    String name,
    @Nullable String variant,
    long seed,
    long baselineEvents,
    long postFaultEvents,
    @Nullable String workloadDigest,
    @Nullable String topic,
    @Nullable String dlqTopic,
    @Nullable String consumerGroup,
    @Nullable String knownHazard) {

  public ScenarioInfo {
    Objects.requireNonNull(pipeline, "pipeline");
    Objects.requireNonNull(name, "name");
    if (baselineEvents < 0 || postFaultEvents < 0) {
      throw new IllegalArgumentException("Event counts cannot be negative");
    }
    if (knownHazard != null && knownHazard.isBlank()) {
      throw new IllegalArgumentException(
          "A known hazard names the upstream defect, e.g. 'apache/iceberg#10892: ...';"
              + " pass null for a scenario without one");
    }
    knownHazard = Redactor.redactNullable(knownHazard);
  }

  /** A scenario without variant, digest, broker or known hazard. */
  public static ScenarioInfo of(
      String pipeline, String name, long seed, long baselineEvents, long postFaultEvents) {
    return new ScenarioInfo(
        pipeline, name, null, seed, baselineEvents, postFaultEvents, null, null, null, null, null);
  }

  public ScenarioInfo withVariant(@Nullable String newVariant) {
    return new ScenarioInfo(
        pipeline,
        name,
        newVariant,
        seed,
        baselineEvents,
        postFaultEvents,
        workloadDigest,
        topic,
        dlqTopic,
        consumerGroup,
        knownHazard);
  }

  public ScenarioInfo withWorkloadDigest(@Nullable String sha256) {
    return new ScenarioInfo(
        pipeline,
        name,
        variant,
        seed,
        baselineEvents,
        postFaultEvents,
        sha256,
        topic,
        dlqTopic,
        consumerGroup,
        knownHazard);
  }

  public ScenarioInfo withBroker(
      String newTopic, @Nullable String newDlqTopic, String newConsumerGroup) {
    return new ScenarioInfo(
        pipeline,
        name,
        variant,
        seed,
        baselineEvents,
        postFaultEvents,
        workloadDigest,
        Objects.requireNonNull(newTopic, "topic"),
        newDlqTopic,
        Objects.requireNonNull(newConsumerGroup, "consumerGroup"),
        knownHazard);
  }

  /**
   * This scenario expected to diverge because of {@code hazard}, an open upstream defect (e.g.
   * {@code FaultVariant.knownHazard()}); null for none.
   */
  public ScenarioInfo withKnownHazard(@Nullable String hazard) {
    return new ScenarioInfo(
        pipeline,
        name,
        variant,
        seed,
        baselineEvents,
        postFaultEvents,
        workloadDigest,
        topic,
        dlqTopic,
        consumerGroup,
        hazard);
  }

  /** Whether the scenario's checks are expected to fail (a known upstream hazard). */
  public boolean expectsDivergence() {
    return knownHazard != null;
  }
}
