package io.reliabilitylab.faults;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class PoisonJobFailureTest {

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
}
