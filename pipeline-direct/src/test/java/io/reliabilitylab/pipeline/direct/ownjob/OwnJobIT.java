package io.reliabilitylab.pipeline.direct.ownjob;

import static io.reliabilitylab.junit.LabAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

import io.reliabilitylab.junit.ReliabilityLabExtension;
import io.reliabilitylab.pipeline.flink.envelope.ChangeEnvelope;
import io.reliabilitylab.record.FaultRecord;
import io.reliabilitylab.record.RunRecord;
import io.reliabilitylab.spi.check.CheckResult;
import java.time.Duration;
import org.apache.flink.api.common.functions.FilterFunction;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.functions.RichFilterFunction;
import org.apache.flink.api.common.state.MapState;
import org.apache.flink.api.common.state.MapStateDescriptor;
import org.apache.flink.api.java.functions.KeySelector;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
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

  // region team-test
  /**
   * The team's job is not discovered: the test gives it to the extension. Seed 7's baseline of
   * about 150 changes holds 22 deletes, none of them last, so a job that drops them still catches
   * up to the last written event and is judged by the checks rather than by the catch-up deadline.
   */
  @RegisterExtension
  static final ReliabilityLabExtension lab =
      ReliabilityLabExtension.forPipeline(OwnJobPipelines.provider("orders-dedup", DEDUPLICATING))
          .withPipeline(OwnJobPipelines.provider("orders-drops-deletes", DROPS_DELETES))
          .withSeed(7)
          .withEvents(300);

  @Test
  void theTeamsJobSurvivesASavepointRestoreWithoutLossOrDuplicates() throws Exception {
    RunRecord run = log(lab.scenario().inject("savepoint-restore").run());

    assertThat(run).passed().snapshotDiff(0);
    assertThat(run)
        .fault("savepoint-restore")
        .fired()
        .recoveredWithin(Duration.ofSeconds(60))
        .details()
        .containsKeys("savepoint_path", "restored_job_id", "parallelism_after");
    assertThat(run.effectiveConfiguration())
        .containsEntry("pipeline", "orders-dedup")
        .hasEntrySatisfying("fault-points", value -> assertThat(value).startsWith("off"));
    assertThat(run.checks())
        .extracting(CheckResult::check)
        .contains("baseline:snapshot-diff", "snapshot-diff", "changelog-completeness");
  }

  @Test
  void theLabCatchesATeamsJobThatDropsDeletes() throws Exception {
    RunRecord run =
        log(lab.scenario().pipeline("orders-drops-deletes").inject("savepoint-restore").run());

    // The baseline already differs, so the lab injects nothing: a fault proves nothing then.
    assertThat(run).failed();
    assertThat(run.faults()).isEmpty();
    assertThat(run).check("baseline:snapshot-diff").failed();
    assertThat(run).check("baseline:changelog-completeness").failed();
    assertThat(run).check("baseline:event-id-audit").failed();
    // Both tables lack the same deletes, so they agree with each other: only the source shows it.
    assertThat(run).check("baseline:current-changelog-consistency").passed();
  }

  // endregion

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
