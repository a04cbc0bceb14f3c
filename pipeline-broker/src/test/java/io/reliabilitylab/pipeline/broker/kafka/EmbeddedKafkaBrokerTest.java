package io.reliabilitylab.pipeline.broker.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EmbeddedKafkaBrokerTest {

  @TempDir Path dir;

  @Test
  void labDefaultsMakeASingleNodeClusterThatRestartsQuickly() {
    assertThat(EmbeddedKafkaBroker.defaults(9092, 9093, dir, 3))
        .containsEntry("process.roles", "broker,controller")
        .containsEntry("controller.quorum.voters", "1@127.0.0.1:9093")
        .containsEntry("listeners", "PLAINTEXT://127.0.0.1:9092,CONTROLLER://127.0.0.1:9093")
        .containsEntry("log.dirs", dir.toString())
        .containsEntry("num.partitions", "3")
        .containsEntry("offsets.topic.replication.factor", "1")
        .containsEntry("transaction.state.log.replication.factor", "1")
        .containsEntry("transaction.state.log.min.isr", "1")
        .containsEntry("group.initial.rebalance.delay.ms", "0");
  }

  @Test
  void aProxiedListenerAdvertisesTheProxysPort() {
    assertThat(
            KraftNode.proxiedListenerSettings(
                9092, 9093, new LabKafkaBroker.ProxiedListener("127.0.0.1", 9094, 9095)))
        .containsEntry(
            "listeners",
            "PLAINTEXT://127.0.0.1:9092,CONTROLLER://127.0.0.1:9093,PROXIED://127.0.0.1:9094")
        .containsEntry(
            "advertised.listeners", "PLAINTEXT://127.0.0.1:9092,PROXIED://127.0.0.1:9095")
        .containsEntry(
            "listener.security.protocol.map",
            "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT,PROXIED:PLAINTEXT");
  }

  @Test
  void propertiesOverrideTheDefaults() {
    EmbeddedKafkaBroker broker =
        EmbeddedKafkaBroker.builder(dir)
            .brokerPort(19092)
            .controllerPort(19093)
            .property("num.partitions", "6")
            .build();
    assertThat(broker.brokerProperties())
        .containsEntry("num.partitions", "6")
        .containsEntry("advertised.listeners", "PLAINTEXT://127.0.0.1:19092");
    assertThat(broker.isRunning()).isFalse();
    assertThatThrownBy(broker::bootstrapServers).hasMessageContaining("call start() first");
    assertThatThrownBy(broker::stop).hasMessageContaining("not running");
  }

  @Test
  void refusesPortsAndSettingsThatCannotWork() {
    assertThatThrownBy(() -> EmbeddedKafkaBroker.builder(dir).brokerPort(70_000))
        .hasMessageContaining("out of range");
    assertThatThrownBy(() -> EmbeddedKafkaBroker.builder(dir).brokerPort(9092).build())
        .hasMessageContaining("Give both brokerPort and controllerPort");
    assertThatThrownBy(
            () -> EmbeddedKafkaBroker.builder(dir).brokerPort(9092).controllerPort(9092).build())
        .hasMessageContaining("must differ");
    assertThatThrownBy(() -> EmbeddedKafkaBroker.builder(dir).defaultPartitions(0))
        .hasMessageContaining("at least 1");
    assertThatThrownBy(() -> EmbeddedKafkaBroker.builder(dir).readyTimeout(Duration.ZERO))
        .hasMessageContaining("positive");
  }
}
