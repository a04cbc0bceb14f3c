package io.reliabilitylab.catalog.rest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.Map;
import org.apache.iceberg.CatalogProperties;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.CommitStateUnknownException;
import org.apache.iceberg.rest.RESTCatalog;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The embedded REST catalog serves Iceberg's REST protocol on loopback: a client creates and loads
 * tables through it, two clients committing to one table conflict in the catalog and both commits
 * land, and closing it stops the service.
 */
class EmbeddedRestCatalogIT {

  private static final Schema SCHEMA =
      new Schema(Types.NestedField.required(1, "order_id", Types.LongType.get()));
  private static final TableIdentifier TABLE = TableIdentifier.of("lab", "orders_current");

  @TempDir Path directory;

  private static RESTCatalog client(EmbeddedRestCatalog catalog) {
    RESTCatalog client = new RESTCatalog();
    client.initialize("warehouse", Map.of(CatalogProperties.URI, catalog.uri()));
    return client;
  }

  private static DataFile file(Table table, String name) {
    return DataFiles.builder(PartitionSpec.unpartitioned())
        .withPath(table.location() + "/data/" + name + ".parquet")
        .withFormat(FileFormat.PARQUET)
        .withFileSizeInBytes(100)
        .withRecordCount(1)
        .build();
  }

  @Test
  void twoClientsCommittingToOneTableBothLandThroughTheCatalog() throws Exception {
    try (EmbeddedRestCatalog catalog = EmbeddedRestCatalog.start(directory);
        RESTCatalog first = client(catalog);
        RESTCatalog second = client(catalog)) {
      assertThat(catalog.uri()).startsWith("http://127.0.0.1:");
      first.createNamespace(Namespace.of("lab"));
      Table created = first.createTable(TABLE, SCHEMA);
      assertThat(created.location()).startsWith(directory.resolve("warehouse").toUri().toString());

      // both load the empty table; the second commit finds the first one's and retries on it
      Table a = first.loadTable(TABLE);
      Table b = second.loadTable(TABLE);
      a.newAppend().appendFile(file(a, "a")).commit();
      b.newAppend().appendFile(file(b, "b")).commit();

      Table read = first.loadTable(TABLE);
      assertThat(read.snapshots()).hasSize(2);
      assertThat(read.currentSnapshot().summary()).containsEntry("total-data-files", "2");
      assertThat(second.listTables(Namespace.of("lab"))).containsExactly(TABLE);
    }
  }

  @Test
  void closingTheCatalogStopsTheService() throws Exception {
    String uri;
    try (EmbeddedRestCatalog catalog = EmbeddedRestCatalog.start(directory)) {
      uri = catalog.uri();
      HttpResponse<String> config =
          HttpClient.newHttpClient()
              .send(
                  HttpRequest.newBuilder(URI.create(uri + "/v1/config")).build(),
                  HttpResponse.BodyHandlers.ofString());
      assertThat(config.statusCode()).isEqualTo(200);
    }
    assertThatThrownBy(
            () ->
                HttpClient.newHttpClient()
                    .send(
                        HttpRequest.newBuilder(URI.create(uri + "/v1/config")).build(),
                        HttpResponse.BodyHandlers.ofString()))
        .isInstanceOf(ConnectException.class);
  }

  @Test
  void aLostCommitResponseLeavesTheCommitAppliedAndTheClientUnsure() throws Exception {
    try (EmbeddedRestCatalog catalog = EmbeddedRestCatalog.start(directory);
        RESTCatalog client = client(catalog)) {
      client.createNamespace(Namespace.of("lab"));
      Table table = client.createTable(TABLE, SCHEMA);
      catalog.loseCommitResponses(TABLE.name(), 1, "lost by \"fault-7\"");

      assertThatThrownBy(() -> table.newAppend().appendFile(file(table, "lost")).commit())
          .isInstanceOf(CommitStateUnknownException.class)
          .hasMessageContaining("lost by \"fault-7\"");

      assertThat(catalog.lostResponses())
          .singleElement()
          .satisfies(
              lost -> {
                assertThat(lost.table()).isEqualTo(TABLE.name());
                assertThat(lost.metadataLocation()).endsWith(".metadata.json");
              });
      Table read = client.loadTable(TABLE);
      assertThat(read.snapshots()).hasSize(1);
      assertThat(((HasTableOperations) read).operations().current().metadataFileLocation())
          .isEqualTo(catalog.lostResponses().get(0).metadataLocation());
      // armed once: the next commit is answered
      read.newAppend().appendFile(file(read, "answered")).commit();
      assertThat(client.loadTable(TABLE).snapshots()).hasSize(2);
    }
  }

  @Test
  void aServiceThatStopsListeningRefusesClientsUntilItListensAgainOnTheSamePort() throws Exception {
    try (EmbeddedRestCatalog catalog = EmbeddedRestCatalog.start(directory);
        RESTCatalog client = client(catalog)) {
      client.createNamespace(Namespace.of("lab"));
      client.createTable(TABLE, SCHEMA);

      catalog.stopListening();
      assertThat(catalog.listening()).isFalse();
      assertThatThrownBy(() -> client.loadTable(TABLE)).isInstanceOf(RuntimeException.class);

      catalog.startListening();
      assertThat(catalog.listening()).isTrue();
      assertThat(client.loadTable(TABLE).name()).endsWith("orders_current");
    }
  }
}
