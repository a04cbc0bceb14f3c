package io.reliabilitylab.objectstore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.entry;

import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** What the object store decides without starting a process. */
class EmbeddedObjectStoreTest {

  @TempDir Path directory;

  @Test
  void theJarIsTheFileOfAJarUrl() throws Exception {
    URL url = new URL("jar:file:/opt/a%20b/s3mock-4.11.0-exec.jar!/" + S3MockJar.MARKER);

    assertThat(S3MockJar.jarOf(url)).isEqualTo(Path.of("/opt/a b/s3mock-4.11.0-exec.jar"));
  }

  @Test
  void aDirectoryOrANestedJarIsNoJarToRun() throws Exception {
    assertThatThrownBy(() -> S3MockJar.jarOf(new URL("file:/opt/classes/" + S3MockJar.MARKER)))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("jar file of its own");
    assertThatThrownBy(
            () ->
                S3MockJar.jarOf(
                    new URL("jar:file:/opt/lab.jar!/BOOT-INF/lib/s3mock.jar!/" + S3MockJar.MARKER)))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("jar file of its own");
  }

  @Test
  void theJarIsFoundOnTheTestClassPath() {
    Path jar = S3MockJar.locate(getClass().getClassLoader());

    assertThat(jar).isRegularFile();
    assertThat(jar.getFileName().toString()).isEqualTo("s3mock-4.11.0-exec.jar");
  }

  @Test
  void aMissingJarIsNamedInOneLine() throws Exception {
    try (URLClassLoader empty = new URLClassLoader(new URL[0], null)) {
      assertThatThrownBy(() -> S3MockJar.locate(empty))
          .isInstanceOf(IllegalStateException.class)
          .hasMessage(
              "S3Mock's jar is not on the class path: add com.adobe.testing:s3mock:4.11.0"
                  + " (classifier exec) as a runtime dependency (reliability-lab-object-store"
                  + " declares it)");
    }
  }

  @Test
  void fileIoPropertiesPointS3FileIoAtTheStore() {
    assertThat(EmbeddedObjectStore.fileIoProperties("http://127.0.0.1:4567"))
        .containsExactly(
            entry("io-impl", "org.apache.iceberg.aws.s3.S3FileIO"),
            entry("s3.endpoint", "http://127.0.0.1:4567"),
            entry("s3.path-style-access", "true"),
            entry("client.region", "us-east-1"),
            entry("s3.access-key-id", "reliability-lab"),
            entry("s3.secret-access-key", "not-a-secret"),
            entry("http-client.type", "apache"));
  }

  @Test
  void theCommandServesPlainHttpOnLoopbackAndKeepsTheFiles() {
    Path jar = Path.of("/opt/s3mock.jar");
    Path store = Path.of("/runs/1/store");

    assertThat(
            EmbeddedObjectStore.command(FastStart.Launch.asIs(jar), List.of(), 4567, store, "lab"))
        .startsWith(EmbeddedObjectStore.javaCommand(), "-Xmx256m")
        .containsSequence("-jar", jar.toString())
        .contains(
            "--server.address=127.0.0.1",
            "--server.port=4567",
            "--server.ssl.enabled=false",
            "--com.adobe.testing.s3mock.store.root=" + store,
            "--com.adobe.testing.s3mock.store.initialBuckets=lab",
            "--com.adobe.testing.s3mock.store.retainFilesOnExit=true");
  }

  @ParameterizedTest
  @ValueSource(strings = {"Lab_Bucket", "ab", "a..b", "-lab", "lab,other"})
  void anInvalidBucketNameIsRefusedBeforeAnythingStarts(String bucket) {
    assertThatThrownBy(() -> EmbeddedObjectStore.start(directory, bucket))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'" + bucket + "'");
    assertThat(directory).isEmptyDirectory();
  }

  @Test
  void thePreparedCopyDependsOnTheJarFile() throws Exception {
    Path jar = Files.write(directory.resolve("s3mock.jar"), new byte[] {1, 2, 3});
    String before = FastStart.key(jar);

    assertThat(FastStart.key(jar)).isEqualTo(before).hasSize(16);
    Files.write(jar, new byte[] {1, 2, 3, 4});
    assertThat(FastStart.key(jar)).isNotEqualTo(before);
  }
}
