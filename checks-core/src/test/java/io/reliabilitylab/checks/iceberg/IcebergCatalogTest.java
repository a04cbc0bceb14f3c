package io.reliabilitylab.checks.iceberg;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Which catalog properties are secrets, and what a Hadoop catalog records; a REST catalog is read
 * through in {@code ReconcileCommandIT}.
 */
class IcebergCatalogTest {

  @TempDir Path directory;

  @Test
  void credentialsTokensKeysAndPasswordsAreSecrets() {
    assertThat(IcebergCatalog.secret("credential")).isTrue();
    assertThat(IcebergCatalog.secret("token")).isTrue();
    assertThat(IcebergCatalog.secret("s3.access-key-id")).isTrue();
    assertThat(IcebergCatalog.secret("s3.secret-access-key")).isTrue();
    assertThat(IcebergCatalog.secret("s3.session-token")).isTrue();
    assertThat(IcebergCatalog.secret("jdbc.password")).isTrue();
    assertThat(IcebergCatalog.secret("s3.endpoint")).isFalse();
    assertThat(IcebergCatalog.secret("warehouse")).isFalse();
    assertThat(IcebergCatalog.secret("client.region")).isFalse();
  }

  @Test
  void aHadoopCatalogRecordsItsDirectory() throws Exception {
    try (IcebergCatalog catalog = IcebergCatalog.hadoop(directory)) {
      assertThat(catalog.description()).startsWith("Hadoop catalog ");
      assertThat(catalog.recorded())
          .containsEntry("iceberg.catalog", "hadoop")
          .containsEntry("iceberg.warehouse", directory.toAbsolutePath().normalize().toString());
    }
  }
}
