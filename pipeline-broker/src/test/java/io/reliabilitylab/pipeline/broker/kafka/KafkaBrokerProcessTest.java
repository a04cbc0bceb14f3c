package io.reliabilitylab.pipeline.broker.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class KafkaBrokerProcessTest {

  @TempDir Path dir;

  @Test
  void badSettingsAreRefusedWithOneClearLine() {
    assertThatThrownBy(() -> KafkaBrokerProcess.builder(dir).maxHeap("lots"))
        .hasMessage("maxHeap is a size such as 512m or 1g, got 'lots'");
    assertThatThrownBy(() -> KafkaBrokerProcess.builder(dir).defaultPartitions(0))
        .hasMessageContaining("at least 1");
    assertThatThrownBy(() -> KafkaBrokerProcess.builder(dir).readyTimeout(Duration.ZERO))
        .hasMessageContaining("must be positive");
  }

  @Test
  void aBrokerNeverStartedHasNoPidNorAddressAndClosesQuietly() {
    KafkaBrokerProcess broker = KafkaBrokerProcess.builder(dir).maxHeap("256m").build();
    assertThat(broker.isRunning()).isFalse();
    assertThat(broker.recoveryLog()).isEmpty();
    assertThat(broker.describe()).contains("its own process", "256m heap");
    assertThatThrownBy(broker::pid).hasMessageContaining("never started");
    assertThatThrownBy(broker::bootstrapServers).hasMessageContaining("start() first");
    assertThatThrownBy(broker::stop).hasMessageContaining("not running");
    broker.close();
    broker.close();
    assertThatThrownBy(broker::start).hasMessageContaining("closed");
  }
}
