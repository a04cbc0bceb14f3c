package io.reliabilitylab.pipeline.flink.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.reliabilitylab.checks.iceberg.OrdersTables;
import io.reliabilitylab.checks.iceberg.SinkCatalog;
import io.reliabilitylab.spi.pipeline.LabOptions;
import io.reliabilitylab.spi.pipeline.PipelineConfig;
import io.reliabilitylab.spi.pipeline.SourceEndpoint;
import io.reliabilitylab.spi.secret.Credentials;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The sink's catalog from the options, and the namespace a scenario's tables get in it. */
class SinkCatalogOptionsTest {

  @TempDir Path scenario;

  private PipelineConfig config(Map<String, String> extra) {
    Map<String, String> options = new HashMap<>(extra);
    options.put(LabOptions.WAREHOUSE_PATH, scenario.resolve("warehouse").toString());
    return new PipelineConfig(
        new SourceEndpoint(
            "jdbc:mysql://127.0.0.1:3306/lab",
            "127.0.0.1",
            3306,
            "lab",
            "orders",
            Credentials.of("lab_cdc", "not-a-secret")),
        options,
        scenario);
  }

  @Test
  void theDefaultIsAHadoopWarehouseWithTheLabsNamespace() {
    PipelineConfig config = config(Map.of());
    SinkCatalog catalog = SinkCatalogOptions.catalog(config);
    assertThat(catalog).isEqualTo(SinkCatalog.hadoop(scenario.resolve("warehouse")));
    assertThat(catalog.commitsAcrossProcesses()).isFalse();
    assertThat(SinkCatalogOptions.namespace(config, catalog)).isEqualTo(OrdersTables.NAMESPACE);
  }

  @Test
  void aTeamsRestCatalogTakesItsUriAndPropertiesAndItsSecretsFromTheEnvironmentOnly() {
    PipelineConfig config =
        config(
            Map.of(
                LabOptions.SINK_CATALOG,
                "rest",
                LabOptions.SINK_CATALOG_URI,
                "https://catalog.internal/api",
                "sink.catalog.property.warehouse",
                "analytics"));
    SinkCatalog catalog =
        SinkCatalogOptions.catalog(
            config, Map.of(SinkCatalogOptions.CREDENTIAL_VARIABLE, "client:s3cr3t"));
    assertThat(catalog)
        .isEqualTo(
            SinkCatalog.rest(
                "https://catalog.internal/api",
                Map.of("warehouse", "analytics", "credential", "client:s3cr3t")));
    assertThat(catalog.commitsAcrossProcesses()).isTrue();
    assertThat(catalog.clientProperties()).containsEntry("uri", "https://catalog.internal/api");
    assertThat(catalog.recorded())
        .containsEntry("iceberg.catalog-uri", "https://catalog.internal/api")
        .containsEntry("iceberg.catalog-property.warehouse", "analytics")
        .containsKey("iceberg.catalog-property.credential")
        .doesNotContainValue("client:s3cr3t");
    assertThat(catalog.toString()).doesNotContain("s3cr3t");
  }

  @Test
  void aSecretGivenAsAnOptionIsRefusedInOneLineNamingTheVariable() {
    PipelineConfig config =
        config(
            Map.of(
                LabOptions.SINK_CATALOG,
                "rest",
                LabOptions.SINK_CATALOG_URI,
                "https://catalog.internal/api",
                "sink.catalog.property.credential",
                "client:s3cr3t"));
    assertThatThrownBy(() -> SinkCatalogOptions.catalog(config, Map.of()))
        .hasMessageStartingWith("The REST catalog property credential is a secret")
        .hasMessageContaining(SinkCatalogOptions.CREDENTIAL_VARIABLE)
        .hasMessageNotContaining("s3cr3t");
  }

  @Test
  void aRestCatalogScenarioGetsANamespaceOfItsOwnThatARestartFindsAgain() {
    PipelineConfig config =
        config(Map.of(LabOptions.SINK_CATALOG, "rest", LabOptions.SINK_CATALOG_URI, "http://x"));
    SinkCatalog catalog = SinkCatalogOptions.catalog(config);
    String first = SinkCatalogOptions.namespace(config, catalog);
    assertThat(first).matches("lab_[a-z0-9_]+_[0-9a-f]{8}");
    assertThat(SinkCatalogOptions.namespace(config, catalog)).isEqualTo(first);
    assertThat(SinkCatalogOptions.sanitized(Path.of("20261207T002718Z-98b66ddb")))
        .isEqualTo("20261207t002718z_98b66ddb");
  }

  @Test
  void anUnknownCatalogOrARestCatalogWithoutItsUriIsOneLine() {
    assertThatThrownBy(
            () -> SinkCatalogOptions.catalog(config(Map.of(LabOptions.SINK_CATALOG, "glue"))))
        .hasMessage("Unknown sink.catalog 'glue': choose one of embedded-rest, hadoop, rest");
    assertThatThrownBy(
            () -> SinkCatalogOptions.catalog(config(Map.of(LabOptions.SINK_CATALOG, "rest"))))
        .hasMessage("sink.catalog=rest needs sink.catalog.uri=<the REST catalog's base URI>");
  }
}
