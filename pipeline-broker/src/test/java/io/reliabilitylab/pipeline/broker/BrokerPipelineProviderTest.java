package io.reliabilitylab.pipeline.broker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.reliabilitylab.spi.pipeline.LabOptions;
import io.reliabilitylab.spi.pipeline.PipelineConfig;
import io.reliabilitylab.spi.pipeline.SourceEndpoint;
import io.reliabilitylab.spi.secret.Credentials;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

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
  void aPostgresSourceIsRefusedInOneLineBeforeAnythingStarts(@TempDir Path work) {
    PipelineConfig config =
        new PipelineConfig(
            new SourceEndpoint(
                "jdbc:postgresql://127.0.0.1:5432/lab",
                "127.0.0.1",
                5432,
                "lab",
                "orders",
                Credentials.of("lab_cdc", "pw")),
            Map.of(
                LabOptions.WAREHOUSE_PATH,
                work.resolve("w").toString(),
                LabOptions.CHECKPOINTS_PATH,
                work.resolve("c").toString()),
            work);

    assertThatThrownBy(() -> new BrokerPipelineProvider().start(config))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "The broker pipeline captures MySQL/MariaDB only so far; run it without --source"
                + " postgres, or run --pipeline direct on PostgreSQL");
  }
}
