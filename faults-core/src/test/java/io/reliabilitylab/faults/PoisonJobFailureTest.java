package io.reliabilitylab.faults;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.reliabilitylab.kit.RecoveryStart;
import io.reliabilitylab.spi.check.LinkageRecord;
import io.reliabilitylab.spi.pipeline.BrokerControl;
import io.reliabilitylab.spi.pipeline.CheckpointInfo;
import io.reliabilitylab.spi.pipeline.JobControl;
import io.reliabilitylab.spi.pipeline.JobFailure;
import io.reliabilitylab.spi.pipeline.JobState;
import io.reliabilitylab.spi.pipeline.SourceConnectorControl.CorruptedRecord;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;

class PoisonJobFailureTest {

  private static final Instant FAULT_AT = Instant.parse("2026-12-07T10:00:00Z");
  private static final CorruptedRecord POISON =
      new CorruptedRecord("orders", 2, 144, 0, "{\"order_id\":4}", "ab", 766, 261L, FAULT_AT);

  @Test
  void theRootCauseIsTheInnermostCausedByLine() {
    String trace =
        String.join(
            "\n",
            "java.io.IOException: Failed to deserialize consumer record due to",
            "\tat org.apache.flink.connector.kafka.source.reader.KafkaRecordEmitter.emitRecord",
            "Caused by: java.io.IOException: Failed to deserialize consumer record",
            "\t... 3 more",
            "Caused by: java.lang.IllegalStateException: Undecodable record at partition 0, offset 7",
            "\tat io.reliabilitylab.pipeline.broker.job.QuarantineRouter.processElement");

    assertThat(PoisonJobFailure.rootCause(trace))
        .isEqualTo("java.lang.IllegalStateException: Undecodable record at partition 0, offset 7");
    assertThat(PoisonJobFailure.rootCause("java.lang.RuntimeException: boom\n\tat x"))
        .isEqualTo("java.lang.RuntimeException: boom");
  }

  @Test
  void oneRestartMayBeForAnotherReasonTwoAreAJobFailingOnTheRecord() {
    String trace =
        "java.io.IOException: Failed to deserialize\nCaused by: java.lang.IllegalStateException:"
            + " Undecodable record at partition 2, offset 144";

    assertThat(PoisonJobFailure.since(Optional.of(restartedWith(4, trace)), 3)).isNull();
    assertThat(PoisonJobFailure.since(Optional.of(restartedWith(5, trace)), 3))
        .isEqualTo(
            "restarted 2 time(s), last with java.lang.IllegalStateException: Undecodable record at"
                + " partition 2, offset 144");
    assertThat(PoisonJobFailure.since(Optional.empty(), 0)).isNull();
  }

  @Test
  void aJobThatDidNotFailOnThePoisonRecoversFromTheFault() throws Exception {
    RecoveryStart start = pastThePoison(false, groupAt(144));

    assertThat(start.await(FAULT_AT, Duration.ofSeconds(5)))
        .isEqualTo(new RecoveryStart.Moment(FAULT_AT, Map.of()));
  }

  @Test
  void aJobFailingOnThePoisonNeverRecoversWhileItsGroupStaysAtTheRecord() {
    RecoveryStart start = pastThePoison(true, groupAt(144));

    assertThatThrownBy(() -> start.await(FAULT_AT, Duration.ofMillis(1300)))
        .isInstanceOf(TimeoutException.class)
        .hasMessageContaining("never got past the corrupted record at orders/2@144")
        .hasMessageContaining("never committed an offset beyond it");
  }

  @Test
  void aJobThatGotPastThePoisonRecoversFromThen() throws Exception {
    RecoveryStart start = pastThePoison(true, groupAt(145));

    RecoveryStart.Moment moment = start.await(FAULT_AT, Duration.ofSeconds(5));

    assertThat(moment.at()).isAfter(FAULT_AT);
    assertThat(moment.details().get("got_past_the_poison")).contains("committed offset 145");
  }

  private static RecoveryStart pastThePoison(boolean failed, BrokerControl broker) {
    return PoisonJobFailure.pastThePoison(
        () -> failed, () -> POISON, broker, Optional.empty(), 0, Clock.systemUTC());
  }

  /** A job that restarted {@code restarts} times, last failing with {@code trace}. */
  private static JobControl restartedWith(long restarts, String trace) {
    return new JobControl() {
      @Override
      public String jobId() {
        return "job";
      }

      @Override
      public JobState state() {
        return JobState.RESTARTING;
      }

      @Override
      public long restartCount() {
        return restarts;
      }

      @Override
      public List<JobFailure> exceptionHistory() {
        return List.of(
            new JobFailure(FAULT_AT, "java.io.IOException", trace, "source", null, false));
      }

      @Override
      public List<CheckpointInfo> checkpoints() {
        return List.of();
      }

      @Override
      public void awaitRunning(Duration timeout) {}

      @Override
      public CheckpointInfo awaitCompletedCheckpointAfter(Instant after, Duration timeout) {
        throw new UnsupportedOperationException("not asked");
      }
    };
  }

  /** A broker whose group has committed {@code offset} of the poisoned partition. */
  private static BrokerControl groupAt(long offset) {
    return new BrokerControl() {
      @Override
      public void stop() {}

      @Override
      public void start() {}

      @Override
      public LinkageRecord observeLinkage(String label) {
        return new LinkageRecord(
            label,
            Instant.now(),
            "orders",
            "lab",
            List.of(new LinkageRecord.PartitionOffset(2, offset, 300)),
            null,
            Map.of());
      }
    };
  }
}
