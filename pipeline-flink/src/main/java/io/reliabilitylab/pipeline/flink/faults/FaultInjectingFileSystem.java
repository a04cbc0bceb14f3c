package io.reliabilitylab.pipeline.flink.faults;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.reliabilitylab.spi.fault.FaultPosition;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Path;
import java.util.OptionalLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.flink.core.fs.BlockLocation;
import org.apache.flink.core.fs.FSDataInputStream;
import org.apache.flink.core.fs.FSDataOutputStream;
import org.apache.flink.core.fs.FileStatus;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.FileSystemKind;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * The local file system under the scheme {@value #SCHEME} ({@code srlfault:///abs/path} is {@code
 * file:///abs/path}), or Flink's S3 file system under {@value #S3_SCHEME} ({@code
 * srlfault-s3://bucket/path} is {@code s3://bucket/path}), with the {@value
 * FaultSwitchboard#CHECKPOINT_STORAGE} fault point: once armed, it fails (action {@code throw}, an
 * {@link IOException} carrying the fault id) or delays (action {@code stall}) the creation of the
 * first file in the directory {@code chk-<n>} of a checkpoint at or after the armed one.
 * Transparent otherwise: the files are the inner file system's.
 *
 * <p>Which file that is depends on where the checkpoint's state goes. Task state larger than
 * Flink's {@code state.storage.fs.memory-threshold} (20 KiB by default) is written by the task in
 * the checkpoint's asynchronous part (failure reason {@code CHECKPOINT_ASYNC_EXCEPTION}, counted
 * toward {@code tolerableCheckpointFailureNumber}; a stall there makes the checkpoint expire).
 * Smaller state is inlined into the {@code _metadata} file, which the JobManager writes when it
 * finalizes the checkpoint: {@code throw} fails it ({@code FINALIZE_CHECKPOINT_FAILURE}, also
 * counted), {@code stall} leaves it alone, since a stalled finalization never expires and blocks
 * the JobManager. So a stall needs task state in files ({@code state.storage.fs.memory-threshold}
 * 0); otherwise the operator point's {@code stall} at {@code at-checkpoint:N} makes a checkpoint
 * expire.
 *
 * <p>Flink finds this file system through {@link FaultInjectingFileSystemFactory}, listed in {@code
 * META-INF/services/org.apache.flink.core.fs.FileSystemFactory}: {@code FileSystem.initialize}
 * loads factories from the class path (and from plugins), so a MiniCluster in the lab's JVM sees
 * it. A remote cluster needs this module's jar in its {@code lib/}.
 *
 * <p>Armed through a {@link FaultChannel}, this point finds the channel in one of two ways: the job
 * writes a link file ({@value FaultChannelWatcher#LINK_FILE}) into its checkpoint directory when it
 * is built, which every JVM writing a checkpoint file follows (the first file of a checkpoint then
 * already sees the armings); or a cluster's processes name the channel from their start with the
 * Flink configuration key or JVM system property {@value FaultChannelWatcher#CHANNEL_PROPERTY},
 * read when they initialize their file systems.
 */
@API(status = EXPERIMENTAL)
public final class FaultInjectingFileSystem extends FileSystem {

  /** The URI scheme of this file system over the local one. */
  public static final String SCHEME = "srlfault";

  /** The URI scheme of this file system over Flink's S3 file system ({@code s3://bucket/...}). */
  public static final String S3_SCHEME = SCHEME + "-s3";

  private static final String METADATA_FILE = "_metadata";
  private static final Pattern CHECKPOINT_DIRECTORY = Pattern.compile("chk-(\\d+)");

  private final String scheme;
  private final String innerScheme;
  private final @Nullable String authority;

  /** Over the local file system: {@code srlfault:///abs/path} is {@code file:///abs/path}. */
  FaultInjectingFileSystem() {
    this.scheme = SCHEME;
    this.innerScheme = "file";
    this.authority = null;
  }

  /**
   * Over the file system of {@code innerScheme}: {@code srlfault-s3://bucket/path} is {@code
   * s3://bucket/path}.
   */
  FaultInjectingFileSystem(String innerScheme, @Nullable String authority) {
    this.scheme = SCHEME + "-" + innerScheme;
    this.innerScheme = innerScheme;
    this.authority = authority;
  }

  /** The {@value #SCHEME} URI of a local path, for a checkpoint directory setting. */
  public static URI uriOf(Path path) {
    String absolute = path.toAbsolutePath().normalize().toUri().getRawPath();
    return URI.create(SCHEME + "://" + absolute);
  }

  /**
   * The fault-injecting URI of a location on another file system: {@code s3://bucket/path} as
   * {@value #S3_SCHEME}{@code ://bucket/path}; a {@code file:} URI as {@value #SCHEME}.
   */
  public static URI uriOf(URI location) {
    if (location.getScheme() == null || "file".equals(location.getScheme())) {
      return uriOf(Path.of(location.getPath()));
    }
    if (!"s3".equals(location.getScheme())) {
      throw new IllegalArgumentException(
          "The checkpoint-storage fault point works on local and s3:// locations, not " + location);
    }
    return URI.create(S3_SCHEME + "://" + location.getRawAuthority() + location.getRawPath());
  }

  /**
   * The file system underneath, looked up each time: Flink caches it, and drops the cache when its
   * file systems are initialized again (an object store restarted on another port).
   */
  private FileSystem inner() throws IOException {
    return "file".equals(innerScheme)
        ? FileSystem.getLocalFileSystem()
        : FileSystem.get(URI.create(innerScheme + "://" + authority + "/"));
  }

  @Override
  public FSDataOutputStream create(org.apache.flink.core.fs.Path path, WriteMode overwriteMode)
      throws IOException {
    if ("file".equals(innerScheme)) {
      // a cluster of processes links its checkpoint directory on the shared disk only
      followChannelLink(path);
    }
    if (FaultSwitchboard.anyArmed()) {
      injectFault(path);
    }
    return inner().create(toInner(path), overwriteMode);
  }

  /**
   * Watches the fault channel that the checkpoint directory links to, if any: a checkpoint's files
   * lie in {@code <checkpoint directory>/<job id>/chk-<n>/}.
   */
  private static void followChannelLink(org.apache.flink.core.fs.Path path) {
    org.apache.flink.core.fs.Path checkpoint = checkpointDirectoryOf(path);
    org.apache.flink.core.fs.Path job = checkpoint == null ? null : checkpoint.getParent();
    org.apache.flink.core.fs.Path root = job == null ? null : job.getParent();
    if (root != null) {
      FaultChannelWatcher.followLink(Path.of(root.toUri().getPath()));
    }
  }

  private static void injectFault(org.apache.flink.core.fs.Path path) throws IOException {
    OptionalLong checkpoint = checkpointOf(path);
    if (checkpoint.isEmpty()) {
      return;
    }
    for (Arming arming : FaultSwitchboard.armed(FaultSwitchboard.CHECKPOINT_STORAGE)) {
      FaultPosition position = arming.position();
      boolean reached =
          (position instanceof FaultPosition.Now
                  || position instanceof FaultPosition.AtCheckpoint at
                      && checkpoint.getAsLong() >= at.checkpoint())
              // A stalled metadata write blocks the JobManager's finalization, which no timeout
              // ends: only task files are delayed.
              && !(arming.action() == FaultAction.STALL && isMetadata(path));
      if (reached && arming.tryFire(checkpoint.getAsLong())) {
        if (arming.action() == FaultAction.STALL) {
          arming.stall();
        } else {
          throw new IOException(
              arming.message("writing " + path + " of checkpoint " + checkpoint.getAsLong()),
              arming.exception("in the checkpoint storage"));
        }
      }
    }
  }

  private static boolean isMetadata(org.apache.flink.core.fs.Path path) {
    return path.getName().startsWith(METADATA_FILE);
  }

  /** The checkpoint id of a path inside a {@code chk-<n>} directory. */
  static OptionalLong checkpointOf(org.apache.flink.core.fs.Path path) {
    org.apache.flink.core.fs.Path directory = checkpointDirectoryOf(path);
    if (directory == null) {
      return OptionalLong.empty();
    }
    Matcher matcher = CHECKPOINT_DIRECTORY.matcher(directory.getName());
    try {
      return matcher.matches()
          ? OptionalLong.of(Long.parseLong(matcher.group(1)))
          : OptionalLong.empty();
    } catch (NumberFormatException e) {
      return OptionalLong.empty();
    }
  }

  /** The {@code chk-<n>} directory a path lies in, or null. */
  private static org.apache.flink.core.fs.@Nullable Path checkpointDirectoryOf(
      org.apache.flink.core.fs.Path path) {
    for (org.apache.flink.core.fs.Path p = path; p != null; p = p.getParent()) {
      if (CHECKPOINT_DIRECTORY.matcher(p.getName()).matches()) {
        return p;
      }
    }
    return null;
  }

  private org.apache.flink.core.fs.Path toInner(org.apache.flink.core.fs.Path path) {
    return new org.apache.flink.core.fs.Path(innerScheme, authority, path.toUri().getPath());
  }

  private org.apache.flink.core.fs.Path toFault(org.apache.flink.core.fs.Path path) {
    return new org.apache.flink.core.fs.Path(scheme, authority, path.toUri().getPath());
  }

  @Override
  public org.apache.flink.core.fs.Path getWorkingDirectory() {
    try {
      return toFault(inner().getWorkingDirectory());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public org.apache.flink.core.fs.Path getHomeDirectory() {
    try {
      return toFault(inner().getHomeDirectory());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public URI getUri() {
    return URI.create(scheme + "://" + (authority == null ? "" : authority) + "/");
  }

  @Override
  public FileStatus getFileStatus(org.apache.flink.core.fs.Path path) throws IOException {
    return new Status(inner().getFileStatus(toInner(path)), this);
  }

  @Override
  public BlockLocation[] getFileBlockLocations(FileStatus file, long start, long len)
      throws IOException {
    FileStatus innerStatus = file instanceof Status status ? status.inner : file;
    return inner().getFileBlockLocations(innerStatus, start, len);
  }

  @Override
  public FSDataInputStream open(org.apache.flink.core.fs.Path path, int bufferSize)
      throws IOException {
    return inner().open(toInner(path), bufferSize);
  }

  @Override
  public FSDataInputStream open(org.apache.flink.core.fs.Path path) throws IOException {
    return inner().open(toInner(path));
  }

  @Override
  public FileStatus[] listStatus(org.apache.flink.core.fs.Path path) throws IOException {
    FileStatus[] statuses = inner().listStatus(toInner(path));
    if (statuses == null) {
      return null;
    }
    FileStatus[] wrapped = new FileStatus[statuses.length];
    for (int i = 0; i < statuses.length; i++) {
      wrapped[i] = new Status(statuses[i], this);
    }
    return wrapped;
  }

  @Override
  public boolean delete(org.apache.flink.core.fs.Path path, boolean recursive) throws IOException {
    return inner().delete(toInner(path), recursive);
  }

  @Override
  public boolean mkdirs(org.apache.flink.core.fs.Path path) throws IOException {
    return inner().mkdirs(toInner(path));
  }

  @Override
  public boolean rename(org.apache.flink.core.fs.Path src, org.apache.flink.core.fs.Path dst)
      throws IOException {
    return inner().rename(toInner(src), toInner(dst));
  }

  @Override
  public boolean exists(org.apache.flink.core.fs.Path path) throws IOException {
    return inner().exists(toInner(path));
  }

  @Override
  public boolean isDistributedFS() {
    try {
      return inner().isDistributedFS();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  @SuppressWarnings("deprecation") // abstract in Flink 1.20 still: it must be implemented
  public FileSystemKind getKind() {
    try {
      return inner().getKind();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** An inner file's status under this file system's scheme. */
  private static final class Status implements FileStatus {
    private final FileStatus inner;
    private final FaultInjectingFileSystem fileSystem;

    Status(FileStatus inner, FaultInjectingFileSystem fileSystem) {
      this.inner = inner;
      this.fileSystem = fileSystem;
    }

    @Override
    public long getLen() {
      return inner.getLen();
    }

    @Override
    public long getBlockSize() {
      return inner.getBlockSize();
    }

    @Override
    public short getReplication() {
      return inner.getReplication();
    }

    @Override
    public long getModificationTime() {
      return inner.getModificationTime();
    }

    @Override
    public long getAccessTime() {
      return inner.getAccessTime();
    }

    @Override
    public boolean isDir() {
      return inner.isDir();
    }

    @Override
    public org.apache.flink.core.fs.Path getPath() {
      return fileSystem.toFault(inner.getPath());
    }
  }
}
