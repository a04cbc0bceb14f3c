package io.reliabilitylab.pipeline.direct.ownjob;

import static org.assertj.core.api.Assertions.assertThat;

import io.reliabilitylab.pipeline.flink.envelope.ChangeEnvelope;
import io.reliabilitylab.record.FaultRecord;
import io.reliabilitylab.record.RunRecord;
import io.reliabilitylab.runner.PlannedFault;
import io.reliabilitylab.runner.ScenarioPlan;
import io.reliabilitylab.runner.ScenarioRunner;
import io.reliabilitylab.runner.discovery.Plugins;
import io.reliabilitylab.source.mysql.EmbeddedMariaDb;
import io.reliabilitylab.spi.check.CheckResult;
import io.reliabilitylab.spi.check.Verdict;
import io.reliabilitylab.spi.fault.FaultStatus;
import io.reliabilitylab.spi.pipeline.PipelineProvider;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import org.apache.flink.api.common.functions.FilterFunction;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.functions.RichFilterFunction;
import org.apache.flink.api.common.state.MapState;
import org.apache.flink.api.common.state.MapStateDescriptor;
import org.apache.flink.api.java.functions.KeySelector;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A pipeline team's test of its own Flink job: the lab runs the team's topology behind its CDC
 * source (embedded MariaDB, Flink CDC, a MiniCluster, Iceberg), stops it with a savepoint and
 * restores it at another parallelism while a seeded workload continues, and reconciles the tables
 * the job wrote with the source. The same job with a bug, one that drops deletes, is caught.
 */
class OwnJobIT {

  private static final Logger LOG = LoggerFactory.getLogger(OwnJobIT.class);

  // region team-topology
  /**
   * The team's job: per order, a change already seen (a replay) is dropped, the rest goes to the
   * lab's tables through the reference sinks.
   */
  static final TeamTopology DEDUPLICATING =
      (env, changes, sinks) ->
          sinks.writeReferenceSinks(
              changes
                  .keyBy(new ByOrder())
                  .filter(new FirstSighting())
                  .uid("drop-replayed-changes")
                  .name("drop replayed changes"));

  /** The same job with a bug: it drops deletes. */
  static final TeamTopology DROPS_DELETES =
      (env, changes, sinks) ->
          sinks.writeReferenceSinks(
              changes.filter(new NotADelete()).uid("drop-deletes").name("BROKEN: drop deletes"));

  // endregion

  @TempDir Path runs;

  // region team-test
  @Test
  void theTeamsJobSurvivesASavepointRestoreWithoutLossOrDuplicates() throws Exception {
    RunRecord run =
        runUnderSavepointRestore(OwnJobPipelines.provider("orders-dedup", DEDUPLICATING));

    assertThat(run.effectiveConfiguration())
        .containsEntry("pipeline", "orders-dedup")
        .hasEntrySatisfying("fault-points", value -> assertThat(value).startsWith("off"));
    assertThat(run.faults()).hasSize(1);
    FaultRecord fault = run.faults().get(0);
    assertThat(fault.evidence().status()).as("%s", fault.evidence()).isEqualTo(FaultStatus.FIRED);
    assertThat(fault.evidence().details())
        .containsKeys("savepoint_path", "restored_job_id", "parallelism_after");
    assertThat(fault.recovery()).isNotNull();
    assertThat(fault.recovery().recovered()).as("%s", fault.recovery()).isTrue();
    assertThat(run.summary().error()).as("run error").isNull();
    assertThat(run.checks())
        .extracting(CheckResult::check)
        .contains("baseline:snapshot-diff", "snapshot-diff", "changelog-completeness");
    assertThat(run.checks())
        .allSatisfy(
            check ->
                assertThat(check.verdict())
                    .as("%s: %s", check.check(), check.summary())
                    .isEqualTo(Verdict.PASSED));
  }

  @Test
  void theLabCatchesATeamsJobThatDropsDeletes() throws Exception {
    RunRecord run =
        runUnderSavepointRestore(OwnJobPipelines.provider("orders-drops-deletes", DROPS_DELETES));

    // The baseline already differs, so the lab injects nothing: a fault proves nothing then.
    assertThat(run.summary().verdict()).isEqualTo(Verdict.FAILED);
    assertThat(run.faults()).isEmpty();
    assertThat(verdict(run, "baseline:snapshot-diff")).isEqualTo(Verdict.FAILED);
    assertThat(verdict(run, "baseline:changelog-completeness")).isEqualTo(Verdict.FAILED);
    assertThat(verdict(run, "baseline:event-id-audit")).isEqualTo(Verdict.FAILED);
    // Both tables lack the same deletes, so they agree with each other: only the source shows it.
    assertThat(verdict(run, "baseline:current-changelog-consistency")).isEqualTo(Verdict.PASSED);
  }

  private RunRecord runUnderSavepointRestore(PipelineProvider teamJob) throws Exception {
    ClassLoader classPath = getClass().getClassLoader();
    ScenarioRunner lab =
        new ScenarioRunner(
            EmbeddedMariaDb.shared(),
            runs,
            List.of(teamJob),
            Plugins.checks(classPath).requireNoProblems().all(),
            Plugins.faults(classPath).requireNoProblems().all(),
            List.of("junit", getClass().getSimpleName()),
            Clock.systemUTC());
    // About 150 changes as a baseline, reconciled; then the fault while the rest is written. Seed
    // 7's baseline holds 22 deletes, none of them last, so a job that drops them still catches up
    // to the last written event and is judged by the checks rather than by the catch-up deadline.
    ScenarioPlan plan =
        ScenarioPlan.of(teamJob.name(), "savepoint-restore", 7, 300)
            .withFaults("savepoint-restore", List.of(PlannedFault.of("savepoint-restore")));
    return log(lab.run(plan));
  }

  // endregion

  private static Verdict verdict(RunRecord run, String check) {
    return run.checks().stream()
        .filter(c -> c.check().equals(check))
        .map(CheckResult::verdict)
        .findFirst()
        .orElseThrow(() -> new AssertionError("no check " + check + " in " + run.checks()));
  }

  private static RunRecord log(RunRecord run) {
    LOG.info("Run of {}: {} timings {}", run.scenario().pipeline(), run.summary(), run.timings());
    for (FaultRecord fault : run.faults()) {
      LOG.info(
          "Fault: {} {} recovery {}",
          fault.evidence().status(),
          fault.evidence().details(),
          fault.recovery());
    }
    for (CheckResult check : run.checks()) {
      LOG.info("Check {}: {} {}", check.check(), check.verdict(), check.summary());
    }
    return run;
  }

  // region team-operators
  private static final class ByOrder implements KeySelector<ChangeEnvelope, Long> {
    private static final long serialVersionUID = 1L;

    @Override
    public Long getKey(ChangeEnvelope change) {
      return change.image().orderId();
    }
  }

  /**
   * Keeps a change the first time its operation and event id are seen for its order (keyed state,
   * restored from the savepoint; a production job would give it a TTL).
   */
  private static final class FirstSighting extends RichFilterFunction<ChangeEnvelope> {
    private static final long serialVersionUID = 1L;
    private transient MapState<String, Boolean> seen;

    @Override
    public void open(OpenContext context) {
      seen =
          getRuntimeContext()
              .getMapState(new MapStateDescriptor<>("seen", String.class, Boolean.class));
    }

    @Override
    public boolean filter(ChangeEnvelope change) throws Exception {
      String id = change.op() + ":" + change.eventId();
      if (seen.contains(id)) {
        return false;
      }
      seen.put(id, true);
      return true;
    }
  }

  private static final class NotADelete implements FilterFunction<ChangeEnvelope> {
    private static final long serialVersionUID = 1L;

    @Override
    public boolean filter(ChangeEnvelope change) {
      return !"d".equals(change.op());
    }
  }
  // endregion
}
