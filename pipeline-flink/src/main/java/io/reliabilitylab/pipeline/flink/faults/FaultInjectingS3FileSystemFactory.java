package io.reliabilitylab.pipeline.flink.faults;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.net.URI;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.FileSystemFactory;
import org.apiguardian.api.API;

/**
 * Makes {@link FaultInjectingFileSystem} over Flink's S3 file system known to Flink under {@value
 * FaultInjectingFileSystem#S3_SCHEME}, one per bucket; listed in {@code
 * META-INF/services/org.apache.flink.core.fs.FileSystemFactory}. The S3 file system itself is
 * Flink's plugin ({@code flink-s3-fs-hadoop}), which the process must have loaded.
 */
@API(status = INTERNAL)
public final class FaultInjectingS3FileSystemFactory implements FileSystemFactory {

  private static final Map<String, FaultInjectingFileSystem> BY_BUCKET = new ConcurrentHashMap<>();

  @Override
  public String getScheme() {
    return FaultInjectingFileSystem.S3_SCHEME;
  }

  @Override
  public FileSystem create(URI fsUri) {
    String bucket = fsUri.getAuthority();
    if (bucket == null || bucket.isBlank()) {
      throw new IllegalArgumentException(
          fsUri + " names no bucket: use " + getScheme() + "://<bucket>/<path>");
    }
    return BY_BUCKET.computeIfAbsent(bucket, b -> new FaultInjectingFileSystem("s3", b));
  }
}
