package io.reliabilitylab.pipeline.flink.catalog;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The S3 plugin's settings come from the store's FileIO properties; its jar is laid out once. */
class FlinkS3PluginTest {

  @Test
  void flinksS3SettingsAreTheFileIoPropertiesUnderFlinksNames() {
    Map<String, String> settings =
        FlinkS3Plugin.flinkConfiguration(
            Map.of(
                "io-impl", "org.apache.iceberg.aws.s3.S3FileIO",
                "s3.endpoint", "http://127.0.0.1:9000",
                "s3.path-style-access", "true",
                "s3.access-key-id", "key",
                "s3.secret-access-key", "secret",
                "client.region", "us-east-1"));

    assertThat(settings)
        .containsOnly(
            Map.entry("s3.endpoint", "http://127.0.0.1:9000"),
            Map.entry("s3.path.style.access", "true"),
            Map.entry("s3.access-key", "key"),
            Map.entry("s3.secret-key", "secret"),
            Map.entry("s3.endpoint.region", "us-east-1"));
    assertThat(FlinkS3Plugin.flinkConfiguration(Map.of("s3.endpoint", "http://s3"))).hasSize(1);
  }

  @Test
  void thePluginsJarIsLaidOutAsAPluginsDirectoryAndReused() throws Exception {
    Path root = FlinkS3Plugin.pluginsDirectory();
    Path jar = root.resolve("s3-fs-hadoop").resolve("flink-s3-fs-hadoop.jar");

    assertThat(jar).isRegularFile();
    assertThat(Files.size(jar)).isGreaterThan(1_000_000);
    long modified = Files.getLastModifiedTime(jar).toMillis();
    assertThat(FlinkS3Plugin.pluginsDirectory()).isEqualTo(root);
    assertThat(Files.getLastModifiedTime(jar).toMillis())
        .as("not copied again")
        .isEqualTo(modified);
  }
}
