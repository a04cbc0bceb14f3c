package io.reliabilitylab.pipeline.flink.faults;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.net.URI;
import java.nio.file.Path;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.FileSystemFactory;
import org.apiguardian.api.API;

/**
 * Makes {@link FaultInjectingFileSystem} known to Flink under {@value
 * FaultInjectingFileSystem#SCHEME}; listed in {@code
 * META-INF/services/org.apache.flink.core.fs.FileSystemFactory}. When Flink initializes the file
 * systems of a process (a JobManager or TaskManager at its start), a channel directory named by the
 * configuration key or system property {@value FaultChannelWatcher#CHANNEL_PROPERTY} is watched
 * from then on.
 */
@API(status = INTERNAL)
public final class FaultInjectingFileSystemFactory implements FileSystemFactory {

  private static final FaultInjectingFileSystem INSTANCE = new FaultInjectingFileSystem();

  private static final ConfigOption<String> CHANNEL =
      ConfigOptions.key(FaultChannelWatcher.CHANNEL_PROPERTY)
          .stringType()
          .noDefaultValue()
          .withDescription("A fault channel directory this process watches from its start.");

  @Override
  public void configure(Configuration config) {
    String directory = config.getOptional(CHANNEL).orElse(System.getProperty(CHANNEL.key()));
    if (directory != null && !directory.isBlank()) {
      FaultChannelWatcher.watch(Path.of(directory.strip()));
    }
  }

  @Override
  public String getScheme() {
    return FaultInjectingFileSystem.SCHEME;
  }

  @Override
  public FileSystem create(URI fsUri) {
    return INSTANCE;
  }
}
