package io.reliabilitylab.examples.customfault;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.reliabilitylab.spi.fault.FaultPosition;
import io.reliabilitylab.spi.fault.FaultSpec;
import java.util.Map;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

class SourceEndpointTest {

  private static final Function<String, @Nullable String> NOTHING = key -> null;
  private static final Function<String, @Nullable String> PASSWORD_IN_ENVIRONMENT =
      key ->
          SourceConnectionLossInjector.PASSWORD_ENVIRONMENT_VARIABLE.equals(key) ? "s3cret" : null;

  private static FaultSpec spec(Map<String, String> parameters) {
    return new FaultSpec(
        "srl-fault-1-source-connection-loss",
        SourceConnectionLossInjector.NAME,
        new FaultPosition.Now(),
        parameters);
  }

  @Test
  void takesTheAddressAndUserFromTheDirectPipelinesConfiguration() {
    SourceEndpoint endpoint =
        SourceEndpoint.resolve(
            spec(Map.of()),
            "direct",
            Map.of("source", "127.0.0.1:41234/lab.orders", "source.user", "lab_cdc"),
            PASSWORD_IN_ENVIRONMENT,
            NOTHING);

    assertThat(endpoint.jdbcUrl()).isEqualTo("jdbc:mysql://127.0.0.1:41234/lab");
    assertThat(endpoint.user()).isEqualTo("lab_cdc");
    assertThat(endpoint.password()).isEqualTo("s3cret");
    assertThat(endpoint.toString()).doesNotContain("s3cret").contains("password=***");
  }

  @Test
  void parametersWinOverTheConfigurationAndTheSystemPropertyOverTheEnvironment() {
    SourceEndpoint endpoint =
        SourceEndpoint.resolve(
            spec(
                Map.of(
                    SourceConnectionLossInjector.JDBC_URL,
                    "jdbc:mysql://db.example.com:3306/shop?sslMode=REQUIRED",
                    SourceConnectionLossInjector.USER,
                    "ops")),
            "mine",
            Map.of("source", "127.0.0.1:1/lab", "source.user", "lab_cdc"),
            PASSWORD_IN_ENVIRONMENT,
            key -> SourceConnectionLossInjector.PASSWORD_SYSTEM_PROPERTY.equals(key) ? "p" : null);

    assertThat(endpoint.jdbcUrl())
        .isEqualTo("jdbc:mysql://db.example.com:3306/shop?sslMode=REQUIRED");
    assertThat(endpoint.address()).isEqualTo("jdbc:mysql://db.example.com:3306/shop");
    assertThat(endpoint.user()).isEqualTo("ops");
    assertThat(endpoint.password()).isEqualTo("p");
  }

  @Test
  void refusesAPasswordParameterAndSaysWhereThePasswordGoes() {
    assertThatThrownBy(
            () ->
                SourceEndpoint.resolve(
                    spec(Map.of("password", "s3cret")),
                    "direct",
                    Map.of("source", "h:1/d", "source.user", "u"),
                    PASSWORD_IN_ENVIRONMENT,
                    NOTHING))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("SRL_SOURCE_PASSWORD")
        .hasMessageNotContaining("s3cret");
  }

  @Test
  void refusesAUrlWithCredentials() {
    assertThatThrownBy(
            () ->
                SourceEndpoint.resolve(
                    spec(Map.of(SourceConnectionLossInjector.JDBC_URL, "jdbc:mysql://u:pw@h:1/d")),
                    "direct",
                    Map.of("source.user", "u"),
                    PASSWORD_IN_ENVIRONMENT,
                    NOTHING))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("must not carry credentials")
        .hasMessageNotContaining("pw@");
  }

  @Test
  void namesTheMissingSettingWhenThePipelineReportsNoSource() {
    assertThatThrownBy(
            () ->
                SourceEndpoint.resolve(
                    spec(Map.of()), "mine", Map.of(), PASSWORD_IN_ENVIRONMENT, NOTHING))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("pipeline 'mine'")
        .hasMessageContaining("'jdbc-url'");
    assertThatThrownBy(
            () ->
                SourceEndpoint.resolve(
                    spec(Map.of()),
                    "mine",
                    Map.of("source", "h:1/d"),
                    PASSWORD_IN_ENVIRONMENT,
                    NOTHING))
        .hasMessageContaining("'user'");
    assertThatThrownBy(
            () ->
                SourceEndpoint.resolve(
                    spec(Map.of()),
                    "mine",
                    Map.of("source", "h:1/d", "source.user", "u"),
                    NOTHING,
                    NOTHING))
        .hasMessageContaining("SRL_SOURCE_PASSWORD")
        .hasMessageContaining("srl.source.password");
  }
}
