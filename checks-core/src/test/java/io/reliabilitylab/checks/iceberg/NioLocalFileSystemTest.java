package io.reliabilitylab.checks.iceberg;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.permission.FsPermission;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class NioLocalFileSystemTest {

  @TempDir Path temp;

  @Test
  void eachConfigurationIsAnIndependentCopyWithTheCallersClassLoader() throws Exception {
    Configuration first = IcebergWarehouse.hadoopConfiguration();
    first.set("fs.file.impl", "somewhere.Else");
    first.set("lab.test.key", "changed");

    ClassLoader own = new java.net.URLClassLoader(new java.net.URL[0], getClass().getClassLoader());
    Thread thread = Thread.currentThread();
    ClassLoader previous = thread.getContextClassLoader();
    thread.setContextClassLoader(own);
    Configuration second;
    try {
      second = IcebergWarehouse.hadoopConfiguration();
    } finally {
      thread.setContextClassLoader(previous);
    }
    assertThat(second.get("fs.file.impl")).isEqualTo(NioLocalFileSystem.class.getName());
    assertThat(second.get("lab.test.key")).isNull();
    assertThat(second.get("fs.defaultFS")).as("Hadoop's defaults").isEqualTo("file:///");
    assertThat(second.getClassLoader()).isSameAs(own);
  }

  @Test
  void theLabsConfigurationOpensItForFileUrisAndItSetsTheRequestedPermissions() throws Exception {
    org.apache.hadoop.fs.Path directory = new org.apache.hadoop.fs.Path(temp.toUri() + "/d");
    try (FileSystem fs =
        FileSystem.newInstance(directory.toUri(), IcebergWarehouse.hadoopConfiguration())) {
      assertThat(fs).isInstanceOf(NioLocalFileSystem.class);

      assertThat(fs.mkdirs(directory, new FsPermission((short) 0750))).isTrue();
      org.apache.hadoop.fs.Path file = new org.apache.hadoop.fs.Path(directory, "f");
      try (FSDataOutputStream out =
          fs.create(file, new FsPermission((short) 0640), false, 4096, (short) 1, 1 << 20, null)) {
        out.write("x".getBytes(StandardCharsets.UTF_8));
      }

      assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(temp.resolve("d"))))
          .isEqualTo("rwxr-x---");
      assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(temp.resolve("d/f"))))
          .isEqualTo("rw-r-----");
      assertThat(Files.exists(temp.resolve("d/.f.crc"))).as("checksummed, as file: is").isTrue();
      assertThat(fs.getFileStatus(file).getPermission()).isEqualTo(new FsPermission((short) 0640));
    }
  }
}
