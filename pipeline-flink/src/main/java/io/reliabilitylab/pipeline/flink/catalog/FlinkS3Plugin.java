package io.reliabilitylab.pipeline.flink.catalog;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URL;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.plugin.DefaultPluginManager;
import org.apache.flink.core.plugin.DirectoryBasedPluginFinder;
import org.apache.flink.core.plugin.PluginManager;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Flink's S3 file system ({@code flink-s3-fs-hadoop}), so that checkpoints can go to {@code s3://}
 * locations of an object store. Flink ships it as a plugin, loaded by a class loader of its own
 * because it carries Hadoop and the AWS SDK unrelocated; the lab's jar carries the plugin's jar as
 * a resource, and {@link #install} lays it out as a plugins directory ({@code
 * <tmpdir>/srl-flink-plugins-<user>/s3-fs-hadoop/}) and initializes this JVM's Flink file systems
 * with it and the store's endpoint and keys (a MiniCluster's JobManager and TaskManagers share
 * them). {@link #flinkConfiguration} gives the same settings for a Flink process's configuration.
 *
 * <p>The plugin is 1.20.1, not the lab's Flink 1.20.3: it is the newest served here, and the plugin
 * interface did not change between the two.
 */
@API(status = INTERNAL)
public final class FlinkS3Plugin {

  private static final Logger LOG = LoggerFactory.getLogger(FlinkS3Plugin.class);
  private static final String RESOURCE = "flink-s3-fs-hadoop.jar";
  private static final String PLUGIN = "s3-fs-hadoop";

  private static @Nullable Map<String, String> installed;

  private FlinkS3Plugin() {}

  /**
   * Initializes this JVM's Flink file systems with the S3 plugin, configured from the Iceberg
   * FileIO properties of an object store ({@code s3.endpoint}, {@code s3.path-style-access}, its
   * keys); once per configuration.
   */
  public static synchronized void install(Map<String, String> fileIoProperties) {
    Map<String, String> settings = flinkConfiguration(fileIoProperties);
    if (settings.equals(installed)) {
      return;
    }
    Configuration configuration = Configuration.fromMap(settings);
    try {
      PluginManager plugins =
          new DefaultPluginManager(
              new DirectoryBasedPluginFinder(pluginsDirectory()).findPlugins(),
              CoreOptions.PLUGIN_ALWAYS_PARENT_FIRST_LOADER_PATTERNS
                  .defaultValue()
                  .toArray(String[]::new));
      FileSystem.initialize(configuration, plugins);
    } catch (IOException e) {
      throw new UncheckedIOException(
          "Cannot load Flink's S3 file system plugin from " + pluginsDirectory() + ": " + e, e);
    }
    installed = settings;
    LOG.info("Flink's S3 file system plugin is loaded, endpoint {}", settings.get("s3.endpoint"));
  }

  /**
   * Flink's S3 settings ({@code s3.endpoint}, {@code s3.path.style.access}, {@code s3.access-key},
   * {@code s3.secret-key}) from Iceberg FileIO properties; those the properties lack are left out.
   */
  public static Map<String, String> flinkConfiguration(Map<String, String> fileIoProperties) {
    Objects.requireNonNull(fileIoProperties, "fileIoProperties");
    Map<String, String> settings = new LinkedHashMap<>();
    copy(fileIoProperties, "s3.endpoint", settings, "s3.endpoint");
    copy(fileIoProperties, "s3.path-style-access", settings, "s3.path.style.access");
    copy(fileIoProperties, "s3.access-key-id", settings, "s3.access-key");
    copy(fileIoProperties, "s3.secret-access-key", settings, "s3.secret-key");
    copy(fileIoProperties, "client.region", settings, "s3.endpoint.region");
    return settings;
  }

  private static void copy(
      Map<String, String> from, String key, Map<String, String> to, String flinkKey) {
    String value = from.get(key);
    if (value != null) {
      to.put(flinkKey, value);
    }
  }

  /**
   * The plugins directory holding the S3 plugin, laid out from the lab's jar once per user and
   * machine ({@code FLINK_PLUGINS_DIR} for a Flink process).
   */
  public static synchronized Path pluginsDirectory() {
    Path root =
        Path.of(System.getProperty("java.io.tmpdir"))
            .resolve("srl-flink-plugins-" + System.getProperty("user.name", "lab"));
    Path jar = root.resolve(PLUGIN).resolve(RESOURCE);
    URL resource = FlinkS3Plugin.class.getResource(RESOURCE);
    if (resource == null) {
      throw new IllegalStateException(
          "Flink's S3 file system plugin is not in the lab's jar (resource "
              + RESOURCE
              + "); build the lab with Maven, which copies it there");
    }
    try {
      long size = resource.openConnection().getContentLengthLong();
      if (size > 0 && Files.isRegularFile(jar) && Files.size(jar) == size) {
        return root;
      }
      Files.createDirectories(jar.getParent());
      Path partial = Files.createTempFile(jar.getParent(), RESOURCE, ".part");
      try (InputStream in = resource.openStream()) {
        Files.copy(in, partial, StandardCopyOption.REPLACE_EXISTING);
      }
      try {
        Files.move(partial, jar, StandardCopyOption.ATOMIC_MOVE);
      } catch (AtomicMoveNotSupportedException e) {
        Files.move(partial, jar, StandardCopyOption.REPLACE_EXISTING);
      }
      return root;
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot lay out the S3 plugin under " + root + ": " + e, e);
    }
  }
}
