package io.reliabilitylab.pipeline.flink.faults;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.net.URI;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.FileSystemFactory;
import org.apiguardian.api.API;

/**
 * Makes {@link FaultInjectingFileSystem} known to Flink under {@value
 * FaultInjectingFileSystem#SCHEME}; listed in {@code
 * META-INF/services/org.apache.flink.core.fs.FileSystemFactory}.
 */
@API(status = INTERNAL)
public final class FaultInjectingFileSystemFactory implements FileSystemFactory {

  private static final FaultInjectingFileSystem INSTANCE = new FaultInjectingFileSystem();

  @Override
  public String getScheme() {
    return FaultInjectingFileSystem.SCHEME;
  }

  @Override
  public FileSystem create(URI fsUri) {
    return INSTANCE;
  }
}
