package io.reliabilitylab.source.mysql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.reliabilitylab.spi.pipeline.SourceEndpoint;
import io.reliabilitylab.spi.secret.Redactor;
import org.junit.jupiter.api.Test;

class ExternalDatabaseTest {

  @Test
  void readsHostPortAndDatabaseFromTheUrl() {
    ExternalDatabase source =
        ExternalDatabase.builder()
            .jdbcUrl("jdbc:mysql://db.example.com:3307/shop?useSSL=false")
            .admin("admin", "Adm1nSecretValue")
            .cdc("cdc", "CdcSecretValue9")
            .build();

    assertThat(source.kind()).isEqualTo("external");
    assertThat(source.host()).isEqualTo("db.example.com");
    assertThat(source.port()).isEqualTo(3307);
    assertThat(source.database()).isEqualTo("shop");
    assertThat(source.jdbcUrl()).isEqualTo("jdbc:mysql://db.example.com:3307/shop?useSSL=false");
    assertThat(source.cdcCredentials().user()).isEqualTo("cdc");
    assertThat(source.toString())
        .doesNotContain("Adm1nSecretValue")
        .doesNotContain("CdcSecretValue9");
    assertThat(source.cdcCredentials().toString()).doesNotContain("CdcSecretValue9");
    assertThat(Redactor.redact("echo Adm1nSecretValue CdcSecretValue9")).isEqualTo("echo *** ***");
  }

  @Test
  void theEndpointOfATableCarriesTheCoordinatesAndTheCdcAccountWithoutShowingItsPassword() {
    ExternalDatabase source =
        ExternalDatabase.builder()
            .jdbcUrl("jdbc:mysql://db.example.com:3307/shop?useSSL=false")
            .admin("admin", "Adm1nSecretValue")
            .cdc("cdc", "CdcSecretValue9")
            .build();

    SourceEndpoint endpoint = source.endpoint("orders");

    assertThat(endpoint.jdbcUrl()).isEqualTo(source.jdbcUrl());
    assertThat(endpoint.host()).isEqualTo("db.example.com");
    assertThat(endpoint.port()).isEqualTo(3307);
    assertThat(endpoint.database()).isEqualTo("shop");
    assertThat(endpoint.table()).isEqualTo("orders");
    assertThat(endpoint.credentials()).isEqualTo(source.cdcCredentials());
    assertThat(String.valueOf(endpoint))
        .contains("cdc")
        .doesNotContain("CdcSecretValue9")
        .doesNotContain("Adm1nSecretValue");
    ExternalDatabase reached = ExternalDatabase.of(endpoint);
    assertThat(reached.jdbcUrl()).isEqualTo(source.jdbcUrl());
    assertThat(reached.adminCredentials()).isEqualTo(source.cdcCredentials());
  }

  @Test
  void theAdminAccountServesTheCaptureByDefaultOnPort3306() {
    ExternalDatabase source =
        ExternalDatabase.of("jdbc:mysql://localhost/lab", "root", "pw-root-1");

    assertThat(source.port()).isEqualTo(3306);
    assertThat(source.cdcCredentials()).isEqualTo(source.adminCredentials());
  }

  @Test
  void aPasswordInTheUrlIsRefusedWithoutEchoingIt() {
    assertThatThrownBy(
            () ->
                ExternalDatabase.of("jdbc:mysql://db:3306/lab?user=x&password=Hunter2x", "x", "y"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("holds credentials")
        .hasMessageContaining("give the password separately")
        .hasMessageNotContaining("Hunter2x");
    assertThatThrownBy(() -> ExternalDatabase.of("jdbc:mysql://x:Hunter2x@db:3306/lab", "x", "y"))
        .hasMessageContaining("holds credentials")
        .hasMessageNotContaining("Hunter2x");
    // what the endpoint the pipelines get would refuse later is refused here, up front
    assertThatThrownBy(
            () ->
                ExternalDatabase.of(
                    "jdbc:mysql://db:3306/lab?trustCertificateKeyStorePassword=Hunter2x", "x", "y"))
        .hasMessageContaining("holds credentials")
        .hasMessageNotContaining("Hunter2x");
  }

  @Test
  void aUrlWithoutDatabaseOrOfAnotherKindIsRefusedWithAnExample() {
    assertThatThrownBy(() -> ExternalDatabase.of("jdbc:mysql://db:3306/", "u", "p"))
        .hasMessageContaining("names no database")
        .hasMessageContaining("jdbc:mysql://db:3306/lab");
    assertThatThrownBy(() -> ExternalDatabase.of("jdbc:mariadb://db:3306/lab", "u", "p"))
        .hasMessageContaining("is not a jdbc:mysql:// URL")
        .hasMessageContaining("also for MariaDB");
    assertThatThrownBy(() -> ExternalDatabase.of("jdbc:mysql://a:1,b:2/lab", "u", "p"))
        .hasMessageContaining("names no single host");
    assertThatThrownBy(() -> ExternalDatabase.builder().admin("u", "p").build())
        .hasMessageContaining("No JDBC URL given");
    assertThatThrownBy(() -> ExternalDatabase.builder().jdbcUrl("jdbc:mysql://db/lab").build())
        .hasMessageContaining("No admin account given");
  }
}
