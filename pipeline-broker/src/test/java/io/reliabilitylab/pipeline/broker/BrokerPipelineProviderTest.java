package io.reliabilitylab.pipeline.broker;

import static org.assertj.core.api.Assertions.assertThat;

import io.reliabilitylab.spi.pipeline.LabOptions;
import io.reliabilitylab.spi.pipeline.ReplayDeduplication;
import io.reliabilitylab.spi.pipeline.ReplicationSlotAccess;
import java.util.Map;
import org.junit.jupiter.api.Test;

class BrokerPipelineProviderTest {

  @Test
  void onlyTheDefaultEmbeddedBrokerAndTopicAreShared() {
    assertThat(BrokerPipelineProvider.sharesBroker(Map.of())).isTrue();
    assertThat(
            BrokerPipelineProvider.sharesBroker(
                Map.of(BrokerPipelineProvider.BROKER_PROCESS, "false")))
        .isTrue();
    // a broker process, an external cluster or a topic the user named: their own broker and topic
    assertThat(
            BrokerPipelineProvider.sharesBroker(
                Map.of(BrokerPipelineProvider.BROKER_PROCESS, "true")))
        .isFalse();
    assertThat(
            BrokerPipelineProvider.sharesBroker(
                Map.of(BrokerPipelineProvider.BOOTSTRAP_SERVERS, "kafka:9092")))
        .isFalse();
    assertThat(BrokerPipelineProvider.sharesBroker(Map.of(BrokerPipelineProvider.TOPIC, "cdc")))
        .isFalse();
  }

  @Test
  void onPostgresTheConnectorsSlotIsOffered() {
    BrokerPipelineProvider provider = new BrokerPipelineProvider();
    assertThat(provider.capabilities(Map.of(LabOptions.SOURCE_ENGINE, LabOptions.POSTGRESQL)))
        .contains(ReplicationSlotAccess.class, ReplayDeduplication.class);
    assertThat(provider.capabilities(Map.of(LabOptions.SOURCE_ENGINE, LabOptions.MYSQL)))
        .doesNotContain(ReplicationSlotAccess.class)
        .contains(ReplayDeduplication.class);
  }
}
