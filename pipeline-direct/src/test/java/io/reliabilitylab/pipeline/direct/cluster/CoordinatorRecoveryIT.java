package io.reliabilitylab.pipeline.direct.cluster;

import static io.reliabilitylab.junit.LabAssertions.assertThat;
import static java.time.Duration.ofSeconds;

import io.reliabilitylab.junit.ReliabilityLabExtension;
import io.reliabilitylab.record.RunRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code coordinator-failure} on the direct pipeline: the source's split enumerator throws, the job
 * fails over globally and comes back; the sink commits again within the lab's target.
 */
class CoordinatorRecoveryIT {

  // region junit-test
  @RegisterExtension
  static final ReliabilityLabExtension lab = ReliabilityLabExtension.forPipeline("direct");

  @Test
  void aFailedEnumeratorIsRecoveredQuicklyAndReconciled() throws Exception {
    RunRecord run = lab.scenario().seed(3).events(1_000).inject("coordinator-failure").run();

    // the lab's target; an idle sink that commits only every 10th checkpoint took ~10 s here
    assertThat(run)
        .passed()
        .fault("coordinator-failure")
        .fired()
        .recoveredWithin(ofSeconds(30))
        .firstCommitWithin(ofSeconds(5));
    assertThat(run).check("baseline:snapshot-diff").passed();
    assertThat(run).check("changelog-completeness").passed();
    assertThat(run).snapshotDiff(0);
  }
  // endregion
}
