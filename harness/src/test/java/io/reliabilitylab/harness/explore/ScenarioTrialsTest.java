package io.reliabilitylab.harness.explore;

import static org.assertj.core.api.Assertions.assertThat;

import io.reliabilitylab.record.ExitCode;
import io.reliabilitylab.record.Summary;
import io.reliabilitylab.spi.check.Verdict;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What a run's failures are called, so that a shrunk case compares with its original. */
class ScenarioTrialsTest {

  @Test
  void aFaultIsNamedWithoutItsSequenceSoThatShrinkingAnEarlierFaultAwayStillReproduces() {
    Summary original =
        failed(
            List.of("baseline:snapshot-diff", "recovery:srl-fault-2-broker-restart"),
            List.of("srl-fault-2-broker-restart"),
            List.of(
                "srl-fault-3-duplicate-redelivery (duplicate-redelivery): the connector published 2"
                    + " of 50 change records after the mark within PT2M"));
    Summary shrunk =
        failed(
            List.of("recovery:srl-fault-1-broker-restart"),
            List.of("srl-fault-1-broker-restart"),
            List.of(
                "srl-fault-2-duplicate-redelivery (duplicate-redelivery): the connector published 0"
                    + " of 4 change records after the mark within PT2M"));

    assertThat(ScenarioTrials.failures(original))
        .containsExactly(
            "snapshot-diff",
            "recovery:broker-restart",
            "not-proven:broker-restart",
            "skipped:duplicate-redelivery");
    assertThat(ScenarioTrials.failures(shrunk))
        .containsExactly(
            "recovery:broker-restart", "not-proven:broker-restart", "skipped:duplicate-redelivery");
  }

  private static Summary failed(List<String> checks, List<String> notProven, List<String> skipped) {
    return new Summary(
        false,
        Verdict.FAILED,
        ExitCode.FAILED,
        List.of("failed"),
        0,
        checks.size(),
        0,
        0,
        notProven.size(),
        skipped.size(),
        checks,
        List.of(),
        notProven,
        skipped,
        0,
        0,
        null);
  }
}
