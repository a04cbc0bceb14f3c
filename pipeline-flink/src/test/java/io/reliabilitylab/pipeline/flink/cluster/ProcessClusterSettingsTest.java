package io.reliabilitylab.pipeline.flink.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.flink.configuration.HighAvailabilityOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ProcessClusterSettingsTest {

  @TempDir Path directory;

  @Test
  void parsesEveryAcceptedForm() {
    assertThat(ProcessClusterSettings.parse("processes"))
        .isEqualTo(ProcessClusterSettings.defaults());
    assertThat(ProcessClusterSettings.parse("processes:3").taskManagers()).isEqualTo(3);
    ProcessClusterSettings ha = ProcessClusterSettings.parse("processes:2jm");
    assertThat(ha.jobManagers()).isEqualTo(2);
    assertThat(ha.taskManagers()).isEqualTo(2);
    assertThat(ha.highAvailability()).isTrue();
    ProcessClusterSettings small = ProcessClusterSettings.parse("processes:1tm:2jm");
    assertThat(List.of(small.taskManagers(), small.jobManagers())).containsExactly(1, 2);
    ProcessClusterSettings big = ProcessClusterSettings.parse("processes:3tm:2jm");
    assertThat(List.of(big.taskManagers(), big.jobManagers())).containsExactly(3, 2);
    assertThat(ProcessClusterSettings.parse(big.optionText())).isEqualTo(big);
    assertThat(ProcessClusterSettings.defaults().highAvailability()).isFalse();
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "process",
        "processes:",
        "processes:0",
        "processes:3jm",
        "processes:x",
        "processes:2jm:1tm",
        "processes:1tm:2jm:1",
        "processes:2:2",
        "mini"
      })
  void refusesOtherTextWithOneLineNamingTheAcceptedForms(String text) {
    assertThatThrownBy(() -> ProcessClusterSettings.parse(text))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'" + text + "'")
        .hasMessageContaining("processes:<n>tm:<n>jm")
        .hasMessageNotContaining("\n");
  }

  @Test
  void writesTheConfigurationWithExplicitTaskManagerMemory() throws Exception {
    ProcessClusterConfig config =
        ProcessClusterConfig.write(ProcessClusterSettings.defaults(), directory);
    String yaml = Files.readString(directory.resolve("conf/config.yaml"));
    assertThat(yaml)
        .contains("rest.address: 127.0.0.1")
        .contains("taskmanager.numberOfTaskSlots: 2")
        .contains("heartbeat.timeout: 5 s")
        .contains("metrics.fetcher.update-interval: 500 ms")
        .doesNotContain("high-availability");
    List<String> tm = config.taskManager("tm-1").command();
    assertThat(tm)
        .contains(ProcessClusterConfig.TASK_MANAGER_MAIN, "taskmanager.resource-id=tm-1")
        .anyMatch(a -> a.startsWith("-Xmx"))
        .anyMatch(a -> a.startsWith("-XX:MaxDirectMemorySize="))
        .anyMatch(a -> a.startsWith("taskmanager.memory.task.heap.size="))
        .anyMatch(a -> a.startsWith("taskmanager.memory.managed.size="))
        .anyMatch(a -> a.startsWith("taskmanager.cpu.cores="))
        .contains("--add-opens=java.base/java.util=ALL-UNNAMED");
    String networkMin = value(tm, "taskmanager.memory.network.min=");
    assertThat(networkMin).isEqualTo(value(tm, "taskmanager.memory.network.max="));
    assertThat(Files.readString(directory.resolve("conf/classpath.args"))).startsWith("-cp \"");
    List<String> jm = config.jobManager("jm-1", config.jobManagerPorts.get(0)).command();
    assertThat(jm)
        .contains(ProcessClusterConfig.JOB_MANAGER_MAIN, "-Xmx512m")
        .contains("rest.port=" + config.jobManagerPorts.get(0).rest())
        .contains("jobmanager.rpc.port=" + config.jobManagerPorts.get(0).rpc());
    assertThat(directory.resolve("zk")).doesNotExist();
  }

  @Test
  void aStandbyJobManagerBringsZooKeeperAndOwnPorts() throws Exception {
    ProcessClusterConfig config =
        ProcessClusterConfig.write(ProcessClusterSettings.parse("processes:1tm:2jm"), directory);
    String yaml = Files.readString(directory.resolve("conf/config.yaml"));
    assertThat(yaml)
        .contains("high-availability.type: zookeeper")
        // the processes reach ZooKeeper through the lab's proxy, the lab's own clients directly
        .contains("high-availability.zookeeper.quorum: 127.0.0.1:" + config.zooKeeperProxyPort)
        .contains("high-availability.cluster-id: " + config.clusterId)
        .contains("high-availability.zookeeper.client.session-timeout: 6 s")
        .contains("high-availability.storageDir: file://" + directory.toAbsolutePath());
    assertThat(config.zooKeeperProxyPort).isNotEqualTo(config.zooKeeperPort);
    assertThat(config.labConfiguration().get(HighAvailabilityOptions.HA_ZOOKEEPER_QUORUM))
        .isEqualTo("127.0.0.1:" + config.zooKeeperPort);
    assertThat(config.clientConfiguration().get(HighAvailabilityOptions.HA_ZOOKEEPER_QUORUM))
        .isEqualTo("127.0.0.1:" + config.zooKeeperPort);
    String zoo = Files.readString(directory.resolve("zk/zoo.cfg"));
    assertThat(zoo)
        .contains("tickTime=500", "minSessionTimeout=1000", "admin.enableServer=false")
        .contains("clientPort=" + config.zooKeeperPort);
    List<String> jm2 = config.jobManager("jm-2", config.jobManagerPorts.get(1)).command();
    assertThat(jm2)
        .contains("rest.port=" + config.jobManagerPorts.get(1).rest())
        .contains("high-availability.jobmanager.port=" + config.jobManagerPorts.get(1).rpc());
    assertThat(config.jobManagerPorts.get(0)).isNotEqualTo(config.jobManagerPorts.get(1));
  }

  private static String value(List<String> arguments, String prefix) {
    return arguments.stream()
        .filter(a -> a.startsWith(prefix))
        .findFirst()
        .orElseThrow()
        .substring(prefix.length());
  }
}
