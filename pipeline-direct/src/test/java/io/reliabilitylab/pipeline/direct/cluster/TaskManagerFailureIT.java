package io.reliabilitylab.pipeline.direct.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.reliabilitylab.faults.TaskFailureInjector;
import io.reliabilitylab.record.FaultRecord;
import io.reliabilitylab.record.RunRecord;
import io.reliabilitylab.source.mysql.EmbeddedMariaDb;
import io.reliabilitylab.spi.fault.FaultStatus;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code task-failure} on the real direct pipeline: the TaskManager running the job is terminated
 * inside the JVM while the workload writes, a replacement registers, the job restarts on it, and
 * every check passes on the final state.
 */
class TaskManagerFailureIT {

  @TempDir Path out;

  @Test
  void aLostTaskManagerIsProvenReplacedRecoveredAndReconciled() throws Exception {
    RunRecord record = FaultScenarios.run(out, "task-failure", 1_000, 5);

    FaultScenarios.assertAllChecksPassed(record);
    assertThat(record.effectiveConfiguration())
        .containsEntry(
            TaskFailureInjector.CLAIM_BOUNDARY_KEY, TaskFailureInjector.EMBEDDED_CLAIM_BOUNDARY)
        .containsKeys("heartbeat.interval", "heartbeat.timeout");
    // The source reaches the pipeline as an endpoint: its coordinates are recorded, its password
    // not.
    EmbeddedMariaDb source = EmbeddedMariaDb.shared();
    assertThat(record.effectiveConfiguration())
        .containsEntry("source", source.endpoint("orders").description())
        .containsEntry("source.user", source.cdcCredentials().user())
        .containsEntry("source.jdbc-url", source.jdbcUrl())
        .containsEntry("source.kind", source.kind());
    assertThat(record.effectiveConfiguration().values())
        .noneMatch(value -> value.contains(source.cdcCredentials().revealPassword()));
    FaultRecord fault = record.faults().get(0);
    assertThat(fault.evidence().status()).isEqualTo(FaultStatus.FIRED);
    Map<String, String> details = fault.evidence().details();
    String victim = details.get("task_manager");
    String replacement = details.get("replacement_task_manager");
    assertThat(victim).isNotBlank();
    assertThat(replacement).isNotBlank().isNotEqualTo(victim);
    assertThat(details)
        .containsEntry("claim_boundary", TaskFailureInjector.EMBEDDED_CLAIM_BOUNDARY)
        .containsKey("task_managers_after");
    // proven once the victim is gone; the job may not be deployed on the replacement yet
    assertThat(details.get("task_managers_after")).doesNotContain(victim);
    long restartsBefore = Long.parseLong(details.get("restart_count_before"));
    long restartsAfter = Long.parseLong(details.get("restart_count_after"));
    assertThat(restartsAfter - restartsBefore).isPositive();
    assertThat(fault.evidence().proofs()).anySatisfy(p -> assertThat(p).contains(victim));
    assertThat(fault.recovery()).isNotNull();
    assertThat(fault.recovery().recovered()).isTrue();
    assertThat(fault.recoveryTime()).isNotNull();
  }
}
