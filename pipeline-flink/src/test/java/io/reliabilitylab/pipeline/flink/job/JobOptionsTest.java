package io.reliabilitylab.pipeline.flink.job;

import static org.assertj.core.api.Assertions.assertThat;

import io.reliabilitylab.pipeline.flink.faults.FaultChannelWatcher;
import io.reliabilitylab.spi.pipeline.LabOptions;
import io.reliabilitylab.spi.pipeline.PipelineConfig;
import io.reliabilitylab.spi.pipeline.SourceEndpoint;
import io.reliabilitylab.spi.secret.Credentials;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JobOptionsTest {

  @TempDir Path temp;

  @Test
  void theFaultChannelDirectoryOptionReachesTheSettings() {
    Path channel = temp.resolve("fault-channel");

    OrdersJobSettings settings =
        JobOptions.settings(
            config(Map.of(JobOptions.FAULT_CHANNEL_DIRECTORY, channel.toString())), "job");

    assertThat(JobOptions.OPTIONAL).contains(JobOptions.FAULT_CHANNEL_DIRECTORY);
    assertThat(settings.faultChannel()).isEqualTo(channel);
    assertThat(settings.toBuilder().build().faultChannel()).isEqualTo(channel);
    assertThat(settings.effectiveConfiguration())
        .containsEntry("fault-points.armed-through", "fault channel " + channel);
  }

  @Test
  void withoutTheOptionTheFaultPointsAreArmedInTheLabsJvm() {
    OrdersJobSettings settings = JobOptions.settings(config(Map.of()), "job");

    assertThat(settings.faultChannel()).isNull();
    assertThat(settings.effectiveConfiguration())
        .containsEntry("fault-points.armed-through", "the lab's JVM (in-JVM switchboard)");
  }

  @Test
  void aJobWithAChannelLinksItsCheckpointDirectoryToIt() throws Exception {
    Path channel = temp.resolve("fault-channel");
    OrdersJobSettings settings =
        JobOptions.settings(
                config(Map.of(JobOptions.FAULT_CHANNEL_DIRECTORY, channel.toString())), "job")
            .toBuilder()
            .build();

    OrdersTopology.configure(StreamExecutionEnvironment.getExecutionEnvironment(), settings);

    Path link = settings.checkpointDirectory().resolve(FaultChannelWatcher.LINK_FILE);
    assertThat(Files.readString(link)).contains("directory=" + channel.toString());
  }

  @Test
  void aJobWithoutAChannelWritesNoLink() {
    OrdersJobSettings settings = JobOptions.settings(config(Map.of()), "job");

    OrdersTopology.configure(StreamExecutionEnvironment.getExecutionEnvironment(), settings);

    assertThat(settings.checkpointDirectory().resolve(FaultChannelWatcher.LINK_FILE))
        .doesNotExist();
  }

  private PipelineConfig config(Map<String, String> extra) {
    Map<String, String> options = new HashMap<>(extra);
    options.put(LabOptions.WAREHOUSE_PATH, temp.resolve("warehouse").toString());
    options.put(LabOptions.CHECKPOINTS_PATH, temp.resolve("checkpoints").toString());
    return new PipelineConfig(
        new SourceEndpoint(
            "jdbc:mysql://127.0.0.1:3306/lab",
            "127.0.0.1",
            3306,
            "lab",
            "orders",
            Credentials.of("lab_cdc", "not-a-secret")),
        options,
        temp);
  }
}
