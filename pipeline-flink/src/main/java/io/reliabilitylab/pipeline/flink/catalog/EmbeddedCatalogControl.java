package io.reliabilitylab.pipeline.flink.catalog;

import io.reliabilitylab.catalog.rest.EmbeddedRestCatalog;
import io.reliabilitylab.spi.pipeline.SinkCatalogControl;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;

/** {@link SinkCatalogControl} over the embedded REST catalog service. */
final class EmbeddedCatalogControl implements SinkCatalogControl {

  private static final Duration PROBE_TIMEOUT = Duration.ofSeconds(1);

  private final EmbeddedRestCatalog catalog;

  EmbeddedCatalogControl(EmbeddedRestCatalog catalog) {
    this.catalog = catalog;
  }

  @Override
  public String address() {
    return catalog.uri();
  }

  @Override
  public void loseCommitResponses(String table, int commits, String message) {
    catalog.loseCommitResponses(table, commits, message);
  }

  @Override
  public List<LostCommitResponse> lostCommitResponses() {
    return catalog.lostResponses().stream()
        .map(lost -> new LostCommitResponse(lost.table(), lost.at(), lost.metadataLocation()))
        .toList();
  }

  @Override
  public void stopListening() throws Exception {
    catalog.stopListening();
  }

  @Override
  public void startListening() throws Exception {
    catalog.startListening();
  }

  /** Whether {@code GET /v1/config}, which every client sends first, is answered. */
  @Override
  public boolean answers() {
    HttpClient client = HttpClient.newBuilder().connectTimeout(PROBE_TIMEOUT).build();
    HttpRequest request =
        HttpRequest.newBuilder(URI.create(catalog.uri() + "/v1/config"))
            .timeout(PROBE_TIMEOUT)
            .build();
    try {
      return client.send(request, HttpResponse.BodyHandlers.discarding()).statusCode() == 200;
    } catch (IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }
}
