package io.reliabilitylab.faults;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.reliabilitylab.spi.pipeline.JobFailure;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class FaultIdsTest {

  @Test
  void anIdIsThePrefixTheSequenceAndTheFaultName() {
    String id = FaultIds.of(3, "task-failure");

    assertThat(id).isEqualTo("srl-fault-3-task-failure");
    assertThat(FaultIds.sequence(id)).isEqualTo(3);
    assertThat(FaultIds.faultName(id)).isEqualTo("task-failure");
  }

  @Test
  void badPartsAreRefusedWithWhatToDo() {
    assertThatThrownBy(() -> FaultIds.of(0, "task-failure"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("from 1");
    assertThatThrownBy(() -> FaultIds.of(1, "Task_Failure"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("kebab-case");
    assertThatThrownBy(() -> FaultIds.faultName("fault-3-task-failure"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("srl-fault-<n>-<fault-name>");
    assertThat(FaultIds.of(Long.MAX_VALUE, "x"))
        .satisfies(id -> assertThat(FaultIds.sequence(id)).isEqualTo(Long.MAX_VALUE));
    assertThatThrownBy(() -> FaultIds.sequence("srl-fault-9999999999999999999-x"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("does not fit a long");
  }

  @Test
  void anIdIsFoundInAMessageOnlyAsAWholeId() {
    String id = FaultIds.of(1, "task-failure");

    assertThat(
            FaultIds.mentionedIn(
                id, "java.lang.RuntimeException: injected srl-fault-1-task-failure at map"))
        .isTrue();
    assertThat(FaultIds.mentionedIn(id, "(srl-fault-1-task-failure)")).isTrue();
    assertThat(FaultIds.mentionedIn(id, "srl-fault-11-task-failure")).isFalse();
    assertThat(FaultIds.mentionedIn(id, "srl-fault-1-task-failure-slow")).isFalse();
    assertThat(FaultIds.mentionedIn(id, "xsrl-fault-1-task-failure")).isFalse();
    assertThat(FaultIds.mentionedIn(id, "Connection reset")).isFalse();
  }

  @Test
  void everyIdInAMessageIsFoundInOrder() {
    String message =
        "srl-fault-2-broker-restart caused srl-fault-5-task-failure; see srl-fault-x-nothing";

    assertThat(FaultIds.findAll(message))
        .containsExactly("srl-fault-2-broker-restart", "srl-fault-5-task-failure");
    assertThat(FaultIds.findFirst(message)).contains("srl-fault-2-broker-restart");
    assertThat(FaultIds.findFirst("no fault here")).isEmpty();
  }

  @Test
  void theFailuresAFaultCausedAreFoundInTheExceptionHistory() {
    String id = FaultIds.of(4, "checkpoint-failure");
    JobFailure ours = failure("Checkpoint storage failed: " + id);
    JobFailure another = failure("Checkpoint storage failed: srl-fault-14-checkpoint-failure");
    JobFailure unrelated = failure("java.net.SocketTimeoutException: Read timed out");

    assertThat(FaultIds.failuresCarrying(id, List.of(unrelated, ours, another, ours)))
        .containsExactly(ours, ours);
  }

  private static JobFailure failure(String message) {
    return new JobFailure(
        Instant.parse("2026-01-01T00:00:00Z"),
        "java.lang.RuntimeException",
        message,
        null,
        null,
        false);
  }
}
