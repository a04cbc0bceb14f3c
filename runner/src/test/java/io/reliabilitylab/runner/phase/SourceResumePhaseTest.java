package io.reliabilitylab.runner.phase;

import static org.assertj.core.api.Assertions.assertThat;

import io.reliabilitylab.source.jdbc.ReplicationStart;
import io.reliabilitylab.spi.check.CheckResult;
import io.reliabilitylab.spi.check.Verdict;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The judgment of a slot's stream starts; reading them from a real server's log is {@code
 * ReplicationStartLogTest}'s, and the phase runs on every PostgreSQL scenario of {@code
 * PostgresSuiteIT}.
 */
class SourceResumePhaseTest {

  private static ReplicationStart start(String requested, String after, boolean skipped) {
    return new ReplicationStart("s", "2026-12-06 21:08:53.069 UTC", requested, after, skipped);
  }

  @Test
  void startsWhereTheJobAskedPass() {
    CheckResult result =
        SourceResumePhase.judge(
            "s", List.of(start("0/20", "0/10", false), start("0/40", "0/30", false)));

    assertThat(result.verdict()).isEqualTo(Verdict.PASSED);
    assertThat(result.evidence().count("starts")).isEqualTo(2);
    assertThat(result.evidence().facts())
        .containsEntry(
            "start_2", "2026-12-06 21:08:53.069 UTC: asked for 0/40, streamed after 0/30");
  }

  @Test
  void aStartTheServerMovedForwardFailsNamingBothPositions() {
    CheckResult result =
        SourceResumePhase.judge(
            "s", List.of(start("0/20", "0/10", false), start("0/55838", "0/594D8", true)));

    assertThat(result.verdict()).isEqualTo(Verdict.FAILED);
    assertThat(result.summary()).startsWith("1 of 2 starts of slot s began past");
    assertThat(result.evidence().samples())
        .singleElement()
        .satisfies(
            sample -> {
              assertThat(sample.kind()).isEqualTo("skipped_wal");
              assertThat(sample.note()).contains("asked for 0/55838", "confirmed to 0/594D8");
            });
  }

  @Test
  void noStartLoggedIsInconclusive() {
    assertThat(SourceResumePhase.judge("s", List.of()).verdict()).isEqualTo(Verdict.INCONCLUSIVE);
  }
}
