package io.reliabilitylab.source.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ExternalPostgresTest {

  private static ExternalPostgres of(String url) {
    return ExternalPostgres.builder().jdbcUrl(url).admin("lab_admin", "s3cret-admin").build();
  }

  @Test
  void theUrlGivesHostPortAndDatabaseAndTheAdminServesTheCaptureUnlessToldOtherwise() {
    ExternalPostgres server = of("jdbc:postgresql://db.example.com:6543/lab?sslmode=require");

    assertThat(server.host()).isEqualTo("db.example.com");
    assertThat(server.port()).isEqualTo(6543);
    assertThat(server.database()).isEqualTo("lab");
    assertThat(server.cdcCredentials()).isEqualTo(server.adminCredentials());
    assertThat(of("jdbc:postgresql://db/lab").port()).isEqualTo(5432);
    assertThat(server.endpoint("orders").table()).isEqualTo("orders");
  }

  @Test
  void aSeparateCaptureRoleIsKeptAndNoPasswordShows() {
    ExternalPostgres server =
        ExternalPostgres.builder()
            .jdbcUrl("jdbc:postgresql://127.0.0.1:5432/lab")
            .admin("lab_admin", "s3cret-admin")
            .cdc("lab_cdc", "s3cret-cdc")
            .build();

    assertThat(server.cdcCredentials().user()).isEqualTo("lab_cdc");
    assertThat(server.toString()).doesNotContain("s3cret");
    assertThat(server.kind()).isEqualTo(ExternalPostgres.KIND);
  }

  @Test
  void aWrongUrlIsOneLineSayingWhatToWrite() {
    assertThatThrownBy(() -> of("jdbc:mysql://db:3306/lab"))
        .hasMessageContaining("is not a jdbc:postgresql:// URL");
    assertThatThrownBy(() -> of("jdbc:postgresql://db:5432/"))
        .hasMessageContaining("names no database")
        .hasMessageContaining("jdbc:postgresql://db:5432/lab");
    assertThatThrownBy(() -> of("jdbc:postgresql://a:5432,b:5432/lab"))
        .hasMessageContaining("names no single host");
    assertThatThrownBy(() -> of("jdbc:postgresql://db:5432/lab?user=x&password=hunter2"))
        .hasMessageContaining("holds credentials")
        .hasMessageNotContaining("hunter2");
    assertThatThrownBy(() -> ExternalPostgres.builder().jdbcUrl("jdbc:postgresql://db/lab").build())
        .hasMessageContaining("No admin role");
  }
}
