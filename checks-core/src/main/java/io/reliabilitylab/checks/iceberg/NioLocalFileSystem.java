package io.reliabilitylab.checks.iceberg;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.attribute.PosixFilePermission;
import java.util.EnumSet;
import java.util.Set;
import org.apache.hadoop.fs.LocalFileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RawLocalFileSystem;
import org.apache.hadoop.fs.permission.FsAction;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apiguardian.api.API;

/**
 * Hadoop's local file system (checksummed, as {@code file:} is by default) that sets permissions
 * through {@code java.nio} rather than a {@code chmod} process. Without Hadoop's native library,
 * which Maven Central does not serve, {@link RawLocalFileSystem} spawns {@code chmod} for every
 * file and directory it creates with a permission: about 280 processes per scenario for the sinks'
 * data, checksum and metadata files, a fork of a JVM with a large heap each time. The permissions
 * set are the same.
 */
@API(status = INTERNAL)
public final class NioLocalFileSystem extends LocalFileSystem {

  public NioLocalFileSystem() {
    super(new Raw());
  }

  /** The raw file system underneath, with its permissions set through {@code java.nio}. */
  static final class Raw extends RawLocalFileSystem {

    @Override
    public void setPermission(Path path, FsPermission permission) throws IOException {
      java.nio.file.Path file = pathToFile(path).toPath();
      try {
        Files.setPosixFilePermissions(file, posix(permission));
      } catch (UnsupportedOperationException notPosix) {
        super.setPermission(path, permission);
      }
    }

    /** The permission's user, group and other bits (a sticky bit is not kept). */
    static Set<PosixFilePermission> posix(FsPermission permission) {
      Set<PosixFilePermission> bits = EnumSet.noneOf(PosixFilePermission.class);
      add(
          bits,
          permission.getUserAction(),
          PosixFilePermission.OWNER_READ,
          PosixFilePermission.OWNER_WRITE,
          PosixFilePermission.OWNER_EXECUTE);
      add(
          bits,
          permission.getGroupAction(),
          PosixFilePermission.GROUP_READ,
          PosixFilePermission.GROUP_WRITE,
          PosixFilePermission.GROUP_EXECUTE);
      add(
          bits,
          permission.getOtherAction(),
          PosixFilePermission.OTHERS_READ,
          PosixFilePermission.OTHERS_WRITE,
          PosixFilePermission.OTHERS_EXECUTE);
      return bits;
    }

    private static void add(
        Set<PosixFilePermission> bits,
        FsAction action,
        PosixFilePermission read,
        PosixFilePermission write,
        PosixFilePermission execute) {
      if (action.implies(FsAction.READ)) {
        bits.add(read);
      }
      if (action.implies(FsAction.WRITE)) {
        bits.add(write);
      }
      if (action.implies(FsAction.EXECUTE)) {
        bits.add(execute);
      }
    }
  }
}
