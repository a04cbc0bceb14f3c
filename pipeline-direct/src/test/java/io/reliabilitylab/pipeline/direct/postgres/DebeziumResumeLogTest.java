package io.reliabilitylab.pipeline.direct.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Lines as Debezium 1.9.8 logged them in a run of the lab (FLINK-39265 reproduced). */
class DebeziumResumeLogTest {

  private static final String IDLE_RESUME =
      "Looking for WAL restart position for last commit LSN 'LSN{0/19716D0}' and last change LSN"
          + " 'LSN{0/19716D0}'";
  private static final String SKIP_AT_COMMIT =
      "Streaming requested from LSN LSN{0/19716D0}, received LSN LSN{0/19716D0} identified as"
          + " already processed";

  @Test
  void aChangeSkippedAtTheCommitAnIdleCheckpointHeldIsTheLoss() {
    assertThat(
            DebeziumResumeLog.changeSkippedAtAnIdleCommit(
                List.of(
                    IDLE_RESUME,
                    "LSN after last stored change LSN 'LSN{0/1971868}' received",
                    SKIP_AT_COMMIT,
                    "Streaming requested from LSN LSN{0/19716D0}, received LSN LSN{0/0} identified"
                        + " as already processed")))
        .isTrue();
  }

  @Test
  void replayedChangesSkippedAfterAResumeMidTransactionAreNot() {
    assertThat(
            DebeziumResumeLog.changeSkippedAtAnIdleCommit(
                List.of(
                    "Looking for WAL restart position for last commit LSN 'LSN{0/1960000}' and last"
                        + " change LSN 'LSN{0/19716D0}'",
                    SKIP_AT_COMMIT)))
        .isFalse();
    assertThat(
            DebeziumResumeLog.changeSkippedAtAnIdleCommit(
                List.of(
                    IDLE_RESUME,
                    "Streaming requested from LSN LSN{0/19716D0}, received LSN LSN{0/1971600}"
                        + " identified as already processed")))
        .isFalse();
    assertThat(
            DebeziumResumeLog.changeSkippedAtAnIdleCommit(
                List.of(
                    "Looking for WAL restart position for last commit LSN 'null' and last change"
                        + " LSN 'LSN{0/1925978}'")))
        .isFalse();
  }
}
