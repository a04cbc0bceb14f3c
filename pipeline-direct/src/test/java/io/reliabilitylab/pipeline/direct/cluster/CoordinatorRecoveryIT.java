package io.reliabilitylab.pipeline.direct.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.reliabilitylab.record.FaultRecord;
import io.reliabilitylab.record.RunRecord;
import io.reliabilitylab.spi.fault.FaultStatus;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code coordinator-failure} on the direct pipeline: the source's split enumerator throws, the job
 * fails over globally and comes back; the sink commits again within the lab's target.
 */
class CoordinatorRecoveryIT {

  @TempDir Path out;

  @Test
  void aFailedEnumeratorIsRecoveredQuicklyAndReconciled() throws Exception {
    RunRecord record = FaultScenarios.run(out, "coordinator-failure", 1_000, 3);

    FaultScenarios.assertAllChecksPassed(record);
    FaultRecord fault = record.faults().get(0);
    assertThat(fault.evidence().status()).isEqualTo(FaultStatus.FIRED);
    assertThat(fault.recovery()).isNotNull();
    assertThat(fault.recovery().recovered()).isTrue();
    // the lab's target; an idle sink that commits only every 10th checkpoint took ~10 s here
    assertThat(fault.recovery().timeToFirstCommit()).isLessThanOrEqualTo(Duration.ofSeconds(5));
  }
}
