package io.reliabilitylab.spi.pipeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.reliabilitylab.spi.secret.Credentials;
import io.reliabilitylab.spi.secret.Redactor;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class SourceEndpointTest {

  private static final String PASSWORD = "Zq8-endpoint-pw";

  private static SourceEndpoint endpoint() {
    return new SourceEndpoint(
        "jdbc:mysql://db.example.com:3307/shop?sslMode=REQUIRED",
        "db.example.com",
        3307,
        "shop",
        "orders",
        Credentials.of("lab_cdc", PASSWORD));
  }

  @AfterEach
  void forgetRegisteredSecrets() {
    Redactor.clearRegistered();
  }

  @Test
  void showsEveryCoordinateButThePassword() {
    SourceEndpoint endpoint = endpoint();

    assertThat(String.valueOf(endpoint))
        .doesNotContain(PASSWORD)
        .contains("jdbc:mysql://db.example.com:3307/shop?sslMode=REQUIRED")
        .contains("db.example.com")
        .contains("3307")
        .contains("shop")
        .contains("orders")
        .contains("lab_cdc")
        .contains("password=***");
    assertThat(endpoint.user()).isEqualTo("lab_cdc");
    assertThat(endpoint.description()).isEqualTo("db.example.com:3307/shop.orders");
    assertThat(endpoint.credentials().revealPassword()).isEqualTo(PASSWORD);
  }

  @Test
  void aPipelineConfigShowsItsSourceWithoutThePassword() {
    PipelineConfig config =
        new PipelineConfig(
            endpoint(),
            Map.of(LabOptions.WAREHOUSE_PATH, "/w", "kafka.sasl.jaas.config", "jaas-Secret-9"),
            Path.of("/run"));

    assertThat(config.toString())
        .contains("db.example.com:3307/shop", "lab_cdc", "/w", "/run")
        .doesNotContain(PASSWORD)
        .doesNotContain("jaas-Secret-9");
    assertThat(config.options().values()).doesNotContain(PASSWORD);
  }

  @Test
  void withTableKeepsTheRest() {
    SourceEndpoint other = endpoint().withTable("accounts");

    assertThat(other.table()).isEqualTo("accounts");
    assertThat(other).isEqualTo(endpoint().withTable("accounts")).isNotEqualTo(endpoint());
    assertThat(other.credentials()).isEqualTo(endpoint().credentials());
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(
      strings = {
        "jdbc:mysql://lab_cdc:" + PASSWORD + "@db:3306/shop",
        "jdbc:mysql://lab_cdc@db:3306/shop",
        "jdbc:mysql://db:3306/shop?user=lab_cdc&password=" + PASSWORD,
        "jdbc:sqlserver://db:1433;databaseName=shop;pwd=" + PASSWORD,
      })
  void refusesAUrlWithCredentialsWithoutEchoingThem(String url) {
    Redactor.register(PASSWORD);

    assertThatThrownBy(
            () -> new SourceEndpoint(url, "db", 3306, "shop", "orders", Credentials.of("u", "")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("holds credentials")
        .hasMessageNotContaining(PASSWORD);
  }

  @Test
  void refusesWhatNoDatabaseHas() {
    Credentials account = Credentials.of("u", "");
    assertThatThrownBy(() -> new SourceEndpoint("mysql://db/x", "db", 1, "x", "t", account))
        .hasMessageContaining("must start with jdbc:");
    assertThatThrownBy(() -> new SourceEndpoint("jdbc:mysql://db/x", "db", 0, "x", "t", account))
        .hasMessageContaining("1..65535");
    assertThatThrownBy(() -> new SourceEndpoint("jdbc:mysql://db/x", "db", 1, "x", " ", account))
        .hasMessageContaining("a table");
  }
}
