package io.reliabilitylab.pipeline.flink.faults;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.reliabilitylab.spi.fault.FaultPosition;
import java.io.IOException;
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
 * file:///abs/path}), with the {@value FaultSwitchboard#CHECKPOINT_STORAGE} fault point: once
 * armed, it fails (action {@code throw}, an {@link IOException} carrying the fault id) or delays
 * (action {@code stall}) the creation of the first file in the directory {@code chk-<n>} of a
 * checkpoint at or after the armed one. Transparent otherwise: the files are the local ones.
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

  /** The URI scheme of this file system. */
  public static final String SCHEME = "srlfault";

  private static final String METADATA_FILE = "_metadata";
  private static final Pattern CHECKPOINT_DIRECTORY = Pattern.compile("chk-(\\d+)");

  private final FileSystem local = FileSystem.getLocalFileSystem();

  FaultInjectingFileSystem() {}

  /** The {@value #SCHEME} URI of a local path, for a checkpoint directory setting. */
  public static URI uriOf(Path path) {
    String absolute = path.toAbsolutePath().normalize().toUri().getRawPath();
    return URI.create(SCHEME + "://" + absolute);
  }

  @Override
  public FSDataOutputStream create(org.apache.flink.core.fs.Path path, WriteMode overwriteMode)
      throws IOException {
    followChannelLink(path);
    if (FaultSwitchboard.anyArmed()) {
      injectFault(path);
    }
    return local.create(toLocal(path), overwriteMode);
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

  private static org.apache.flink.core.fs.Path toLocal(org.apache.flink.core.fs.Path path) {
    return new org.apache.flink.core.fs.Path("file", null, path.toUri().getPath());
  }

  private static org.apache.flink.core.fs.Path toFault(org.apache.flink.core.fs.Path path) {
    return new org.apache.flink.core.fs.Path(SCHEME, null, path.toUri().getPath());
  }

  @Override
  public org.apache.flink.core.fs.Path getWorkingDirectory() {
    return toFault(local.getWorkingDirectory());
  }

  @Override
  public org.apache.flink.core.fs.Path getHomeDirectory() {
    return toFault(local.getHomeDirectory());
  }

  @Override
  public URI getUri() {
    return URI.create(SCHEME + ":///");
  }

  @Override
  public FileStatus getFileStatus(org.apache.flink.core.fs.Path path) throws IOException {
    return new Status(local.getFileStatus(toLocal(path)));
  }

  @Override
  public BlockLocation[] getFileBlockLocations(FileStatus file, long start, long len)
      throws IOException {
    FileStatus localStatus = file instanceof Status status ? status.local : file;
    return local.getFileBlockLocations(localStatus, start, len);
  }

  @Override
  public FSDataInputStream open(org.apache.flink.core.fs.Path path, int bufferSize)
      throws IOException {
    return local.open(toLocal(path), bufferSize);
  }

  @Override
  public FSDataInputStream open(org.apache.flink.core.fs.Path path) throws IOException {
    return local.open(toLocal(path));
  }

  @Override
  public FileStatus[] listStatus(org.apache.flink.core.fs.Path path) throws IOException {
    FileStatus[] statuses = local.listStatus(toLocal(path));
    if (statuses == null) {
      return null;
    }
    FileStatus[] wrapped = new FileStatus[statuses.length];
    for (int i = 0; i < statuses.length; i++) {
      wrapped[i] = new Status(statuses[i]);
    }
    return wrapped;
  }

  @Override
  public boolean delete(org.apache.flink.core.fs.Path path, boolean recursive) throws IOException {
    return local.delete(toLocal(path), recursive);
  }

  @Override
  public boolean mkdirs(org.apache.flink.core.fs.Path path) throws IOException {
    return local.mkdirs(toLocal(path));
  }

  @Override
  public boolean rename(org.apache.flink.core.fs.Path src, org.apache.flink.core.fs.Path dst)
      throws IOException {
    return local.rename(toLocal(src), toLocal(dst));
  }

  @Override
  public boolean exists(org.apache.flink.core.fs.Path path) throws IOException {
    return local.exists(toLocal(path));
  }

  @Override
  public boolean isDistributedFS() {
    return false;
  }

  @Override
  @SuppressWarnings("deprecation") // abstract in Flink 1.20 still: it must be implemented
  public FileSystemKind getKind() {
    return FileSystemKind.FILE_SYSTEM;
  }

  /** A local file's status under this file system's scheme. */
  private static final class Status implements FileStatus {
    private final FileStatus local;

    Status(FileStatus local) {
      this.local = local;
    }

    @Override
    public long getLen() {
      return local.getLen();
    }

    @Override
    public long getBlockSize() {
      return local.getBlockSize();
    }

    @Override
    public short getReplication() {
      return local.getReplication();
    }

    @Override
    public long getModificationTime() {
      return local.getModificationTime();
    }

    @Override
    public long getAccessTime() {
      return local.getAccessTime();
    }

    @Override
    public boolean isDir() {
      return local.isDir();
    }

    @Override
    public org.apache.flink.core.fs.Path getPath() {
      return toFault(local.getPath());
    }
  }
}
