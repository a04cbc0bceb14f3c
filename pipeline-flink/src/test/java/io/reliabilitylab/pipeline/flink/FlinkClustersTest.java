package io.reliabilitylab.pipeline.flink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.reliabilitylab.spi.pipeline.JobManagerControl;
import io.reliabilitylab.spi.pipeline.LabOptions;
import io.reliabilitylab.spi.pipeline.SinkCatalogControl;
import io.reliabilitylab.spi.pipeline.TableMaintenance;
import io.reliabilitylab.spi.pipeline.TaskManagerControl;
import io.reliabilitylab.spi.pipeline.TaskManagerProcessControl;
import io.reliabilitylab.spi.pipeline.ZooKeeperNetworkLink;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Which cluster the options ask for, and what a Flink pipeline can offer on it. */
class FlinkClustersTest {

  @Test
  void theEmbeddedClusterIsTheDefaultAndOffersWhatItAlwaysDid() {
    assertThat(FlinkClusters.processes(Map.of())).isEmpty();
    assertThat(FlinkClusters.processes(Map.of(LabOptions.FLINK_CLUSTER, "embedded"))).isEmpty();
    assertThat(FlinkClusters.capabilities(FlinkPipeline.EMBEDDED_CAPABILITIES, Map.of()))
        .isEqualTo(FlinkPipeline.EMBEDDED_CAPABILITIES);
  }

  @Test
  void processesOfferProcessControlAndAStandbyJobManagerControlButNoMaintenance() {
    Map<String, String> plain = Map.of(LabOptions.FLINK_CLUSTER, "processes");
    assertThat(FlinkClusters.processes(plain).orElseThrow().taskManagers()).isEqualTo(2);
    assertThat(FlinkClusters.capabilities(FlinkPipeline.EMBEDDED_CAPABILITIES, plain))
        .contains(TaskManagerControl.class, TaskManagerProcessControl.class)
        .doesNotContain(TableMaintenance.class, JobManagerControl.class);

    Map<String, String> highlyAvailable = Map.of(LabOptions.FLINK_CLUSTER, "processes:3tm:2jm");
    assertThat(FlinkClusters.processes(highlyAvailable).orElseThrow().jobManagers()).isEqualTo(2);
    assertThat(FlinkClusters.capabilities(FlinkPipeline.EMBEDDED_CAPABILITIES, highlyAvailable))
        .contains(
            JobManagerControl.class, TaskManagerProcessControl.class, ZooKeeperNetworkLink.class);
    assertThat(FlinkClusters.capabilities(FlinkPipeline.EMBEDDED_CAPABILITIES, plain))
        .doesNotContain(ZooKeeperNetworkLink.class);
  }

  @Test
  void aSessionClusterOffersNoTaskManagersAndNoMaintenance() {
    Map<String, String> session = Map.of(LabOptions.FLINK_REST_ADDRESS, "http://jm:8081");
    assertThat(FlinkClusters.capabilities(FlinkPipeline.EMBEDDED_CAPABILITIES, session))
        .doesNotContain(
            TaskManagerControl.class, TableMaintenance.class, TaskManagerProcessControl.class);
  }

  @Test
  void aRestCatalogKeepsMaintenanceOnEveryClusterAndTheEmbeddedOneOffersItsFaults() {
    Map<String, String> processesOnRest =
        Map.of(LabOptions.FLINK_CLUSTER, "processes", LabOptions.SINK_CATALOG, "rest");
    assertThat(FlinkClusters.capabilities(FlinkPipeline.EMBEDDED_CAPABILITIES, processesOnRest))
        .contains(TableMaintenance.class)
        .doesNotContain(SinkCatalogControl.class);
    Map<String, String> sessionOnEmbeddedRest =
        Map.of(
            LabOptions.FLINK_REST_ADDRESS,
            "http://jm:8081",
            LabOptions.SINK_CATALOG,
            "embedded-rest");
    assertThat(
            FlinkClusters.capabilities(FlinkPipeline.EMBEDDED_CAPABILITIES, sessionOnEmbeddedRest))
        .contains(TableMaintenance.class, SinkCatalogControl.class)
        .doesNotContain(TaskManagerControl.class);
    assertThat(FlinkClusters.capabilities(FlinkPipeline.EMBEDDED_CAPABILITIES, Map.of()))
        .doesNotContain(SinkCatalogControl.class);
  }

  @Test
  void aClusterToStartAndAClusterToReachAreRefusedTogetherInOneLine() {
    assertThatThrownBy(
            () ->
                FlinkClusters.processes(
                    Map.of(
                        LabOptions.FLINK_CLUSTER, "processes",
                        LabOptions.FLINK_REST_ADDRESS, "http://jm:8081")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("--flink-cluster processes")
        .hasMessageContaining("--flink-rest-address http://jm:8081")
        .hasMessageNotContaining("\n");
  }

  @Test
  void anUnreadableClusterNamesTheAcceptedForms() {
    assertThatThrownBy(() -> FlinkClusters.processes(Map.of(LabOptions.FLINK_CLUSTER, "docker")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("processes");
  }
}
