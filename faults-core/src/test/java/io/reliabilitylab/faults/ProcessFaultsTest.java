package io.reliabilitylab.faults;

import static org.assertj.core.api.Assertions.assertThat;

import io.reliabilitylab.spi.data.DeliverySemantics;
import io.reliabilitylab.spi.fault.FaultContext;
import io.reliabilitylab.spi.fault.FaultEvidence;
import io.reliabilitylab.spi.fault.FaultHandle;
import io.reliabilitylab.spi.fault.FaultInjector;
import io.reliabilitylab.spi.fault.FaultPosition;
import io.reliabilitylab.spi.fault.FaultSpec;
import io.reliabilitylab.spi.fault.FaultStatus;
import io.reliabilitylab.spi.fault.RecoveryEvidence;
import io.reliabilitylab.spi.pipeline.JobManagerControl;
import io.reliabilitylab.spi.pipeline.PipelineCapability;
import io.reliabilitylab.spi.pipeline.PipelineUnderTest;
import io.reliabilitylab.spi.pipeline.TaskManagerControl;
import io.reliabilitylab.spi.pipeline.TaskManagerProcessControl;
import io.reliabilitylab.testkit.simulated.SimulatedPipeline;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The process faults' proofs on a simulated pipeline whose TaskManagers and JobManagers stand in
 * for processes (the real ones run in ProcessClusterRunIT): each is proven on a faithful cluster
 * and not proven where the operating system or the election tells otherwise.
 */
class ProcessFaultsTest {

  private static final Duration WAIT = Duration.ofSeconds(10);
  private static final Duration SHORT = Duration.ofMillis(600);

  @TempDir Path workDirectory;

  private final List<PipelineUnderTest> pipelines = new ArrayList<>();

  @AfterEach
  void stopPipelines() throws Exception {
    for (PipelineUnderTest pipeline : pipelines) {
      pipeline.close();
    }
  }

  @Test
  void aTaskManagerKilledWithSigkillIsProvenByItsExitStatusAndTheRestart() throws Exception {
    Processes pipeline = track(new Processes(137, true));

    try (FaultHandle handle = inject(new TaskFailureInjector(), pipeline, "kill")) {
      FaultEvidence evidence = handle.awaitFired(WAIT);

      assertThat(evidence.status()).isEqualTo(FaultStatus.FIRED);
      assertThat(evidence.details())
          .containsEntry("exit_status", "137")
          .containsEntry("task_manager", "tm-1")
          .containsEntry("task_manager_pid", "1001")
          .containsEntry("signal", "SIGKILL")
          .containsEntry("claim_boundary", TaskManagerProcessFaults.KILL_CLAIM_BOUNDARY)
          .containsKey("replacement_pid");
      assertThat(evidence.proofs()).anySatisfy(p -> assertThat(p).contains("exit status 137"));
      assertThat(handle.awaitRecovery(WAIT).recovered()).isTrue();
    }
  }

  @Test
  void aTaskManagerThatExitedOtherwiseThanBySigkillIsNotProven() throws Exception {
    Processes pipeline = track(new Processes(143, true));

    try (FaultHandle handle = inject(new TaskFailureInjector(), pipeline, "kill")) {
      FaultEvidence evidence = handle.awaitFired(SHORT);

      assertThat(evidence.status()).isNotEqualTo(FaultStatus.FIRED);
      assertThat(evidence.reason()).contains("143");
    }
  }

  @Test
  void aFrozenTaskManagerIsProvenOnceDroppedAndThawedAndItsComebackRecorded() throws Exception {
    Processes pipeline = track(new Processes(137, true));

    try (FaultHandle handle = inject(new TaskFailureInjector(), pipeline, "pause")) {
      FaultEvidence evidence = handle.awaitFired(WAIT);

      assertThat(evidence.status()).isEqualTo(FaultStatus.FIRED);
      assertThat(evidence.details())
          .containsKeys("declared_lost_after_ms", "resumed_at", "paused_at")
          .containsEntry("claim_boundary", TaskManagerProcessFaults.PAUSE_CLAIM_BOUNDARY);
      assertThat(pipeline.taskManagers.paused).containsExactly("tm-1");
      assertThat(pipeline.taskManagers.resumed).containsExactly("tm-1");
      assertThat(handle.awaitRecovery(WAIT).details().get("comeback")).contains("registered");
    }
  }

  @Test
  void aKilledLeaderIsProvenByTheStandbyLeadingTheSameJobToACheckpoint() throws Exception {
    Processes pipeline = track(new Processes(137, true));

    try (FaultHandle handle = inject(new JobManagerFailoverInjector(), pipeline, null)) {
      FaultEvidence evidence = handle.awaitFired(WAIT);

      assertThat(evidence.status()).isEqualTo(FaultStatus.FIRED);
      assertThat(evidence.details())
          .containsEntry("old_leader", "jm-1")
          .containsEntry("new_leader", "jm-2")
          .containsEntry("exit_status", "137")
          .containsKeys("takeover_ms", "first_checkpoint_after");
      RecoveryEvidence recovery = handle.awaitRecovery(WAIT);
      assertThat(recovery.recovered()).isTrue();
      assertThat(recovery.details()).containsEntry("rejoined", "true").containsKey("rejoined_pid");
    }
    assertThat(pipeline.jobManagers.restarted).containsExactly("jm-1");
  }

  @Test
  void aKilledLeaderWithNoElectionIsNotProven() throws Exception {
    Processes pipeline = track(new Processes(137, false));

    try (FaultHandle handle = inject(new JobManagerFailoverInjector(), pipeline, null)) {
      FaultEvidence evidence = handle.awaitFired(SHORT);

      assertThat(evidence.status()).isNotEqualTo(FaultStatus.FIRED);
      assertThat(evidence.reason()).contains("no JobManager has taken the lead");
    }
  }

  @Test
  void withoutProcessControlTheProcessVariantsAreSkippedWithTheReason() throws Exception {
    SimulatedPipeline pipeline = track(SimulatedPipeline.running());

    try (FaultHandle handle = inject(new TaskFailureInjector(), pipeline, "kill")) {
      FaultEvidence evidence = handle.awaitFired(SHORT);

      assertThat(evidence.status()).isEqualTo(FaultStatus.SKIPPED);
      assertThat(evidence.reason()).contains("TaskManagerProcessControl");
    }
  }

  private FaultHandle inject(
      FaultInjector injector, PipelineUnderTest pipeline, String processAction) throws Exception {
    Map<String, String> parameters =
        processAction == null ? Map.of() : Map.of(TaskFailureInjector.PROCESS, processAction);
    FaultSpec spec =
        new FaultSpec(
            FaultIds.of(1, injector.name()), injector.name(), new FaultPosition.Now(), parameters);
    return injector.inject(
        new FaultContext(pipeline, spec, Clock.systemUTC(), WAIT, workDirectory));
  }

  private <P extends PipelineUnderTest> P track(P pipeline) {
    pipelines.add(pipeline);
    return pipeline;
  }

  /** A simulated pipeline whose TaskManagers and JobManagers answer as processes would. */
  private static final class Processes implements PipelineUnderTest {
    final SimulatedPipeline simulated = SimulatedPipeline.running();
    final FakeTaskManagers taskManagers;
    final FakeJobManagers jobManagers;

    Processes(int exitStatus, boolean electsAStandby) {
      this.taskManagers = new FakeTaskManagers(simulated, exitStatus);
      this.jobManagers = new FakeJobManagers(electsAStandby);
    }

    @Override
    public String name() {
      return "processes";
    }

    @Override
    public DeliverySemantics semantics() {
      return simulated.semantics();
    }

    @Override
    public Set<Class<? extends PipelineCapability>> capabilities() {
      Set<Class<? extends PipelineCapability>> offered = new HashSet<>(simulated.capabilities());
      offered.add(TaskManagerProcessControl.class);
      offered.add(JobManagerControl.class);
      return offered;
    }

    @Override
    public <T extends PipelineCapability> Optional<T> capability(Class<T> type) {
      if (type == TaskManagerControl.class || type == TaskManagerProcessControl.class) {
        return Optional.of(type.cast(taskManagers));
      }
      if (type == JobManagerControl.class) {
        return Optional.of(type.cast(jobManagers));
      }
      return simulated.capability(type);
    }

    @Override
    public Map<String, String> effectiveConfiguration() {
      return simulated.effectiveConfiguration();
    }

    @Override
    public Map<String, String> stackVersions() {
      return simulated.stackVersions();
    }

    @Override
    public void close() {
      simulated.close();
    }
  }

  /** Kill, pause and resume act on the simulation's TaskManagers; pids are 1000 + the number. */
  private static final class FakeTaskManagers implements TaskManagerProcessControl {
    private final SimulatedPipeline simulated;
    private final int exitStatus;
    final Set<String> paused = new LinkedHashSet<>();
    final Set<String> resumed = new LinkedHashSet<>();

    FakeTaskManagers(SimulatedPipeline simulated, int exitStatus) {
      this.simulated = simulated;
      this.exitStatus = exitStatus;
    }

    @Override
    public List<String> taskManagers() {
      return simulated.taskManagers();
    }

    @Override
    public void terminate(String taskManagerId) {
      kill(taskManagerId);
    }

    @Override
    public String startReplacement() {
      return simulated.startReplacement();
    }

    @Override
    public long pid(String taskManagerId) {
      return 1000 + Long.parseLong(taskManagerId.substring("tm-".length()));
    }

    @Override
    public int kill(String taskManagerId) {
      simulated.terminate(taskManagerId);
      return exitStatus;
    }

    @Override
    public synchronized void pause(String taskManagerId) {
      paused.add(taskManagerId);
      // the cluster drops it and the job restarts on a spare TaskManager
      simulated.terminate(taskManagerId);
      simulated.startReplacement();
    }

    @Override
    public synchronized void resume(String taskManagerId) {
      resumed.add(taskManagerId);
    }

    @Override
    public synchronized Set<String> registeredTaskManagers() {
      Set<String> registered = new HashSet<>(simulated.taskManagers());
      registered.removeAll(paused);
      registered.addAll(resumed);
      return registered;
    }

    @Override
    public Duration heartbeatTimeout() {
      return Duration.ofMillis(200);
    }
  }

  /** Two JobManagers; a killed leader is succeeded by the other after a short election. */
  private static final class FakeJobManagers implements JobManagerControl {
    private final boolean electsAStandby;
    private final Set<String> dead = new HashSet<>();
    final List<String> restarted = new ArrayList<>();
    private long killedAt;

    FakeJobManagers(boolean electsAStandby) {
      this.electsAStandby = electsAStandby;
    }

    @Override
    public synchronized List<JobManager> jobManagers() {
      Optional<JobManager> leader = leader();
      List<JobManager> all = new ArrayList<>();
      for (String id : List.of("jm-1", "jm-2")) {
        boolean leads = leader.map(l -> l.id().equals(id)).orElse(false);
        all.add(jobManager(id, leads));
      }
      return all;
    }

    @Override
    public synchronized Optional<JobManager> leader() {
      if (!dead.contains("jm-1")) {
        return Optional.of(jobManager("jm-1", true));
      }
      boolean elected = electsAStandby && System.currentTimeMillis() - killedAt > 300;
      return elected ? Optional.of(jobManager("jm-2", true)) : Optional.empty();
    }

    private JobManager jobManager(String id, boolean leads) {
      return new JobManager(
          id,
          id.equals("jm-1") ? 2001 : 2002,
          "http://127.0.0.1:" + (id.equals("jm-1") ? 8081 : 8082),
          !dead.contains(id),
          leads);
    }

    @Override
    public synchronized int kill(String jobManagerId) {
      dead.add(jobManagerId);
      killedAt = System.currentTimeMillis();
      return 137;
    }

    @Override
    public synchronized JobManager restart(String jobManagerId) {
      restarted.add(jobManagerId);
      return jobManager(jobManagerId, false);
    }
  }
}
