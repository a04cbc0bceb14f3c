package io.reliabilitylab.spi.pipeline;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.time.Instant;
import java.util.List;
import java.util.Objects;
import org.apiguardian.api.API;

/**
 * Breaks the catalog service the sink commits through (an Iceberg REST catalog the lab runs):
 * offered only where the pipeline's tables live behind such a service and the lab controls it.
 */
@API(status = EXPERIMENTAL)
public interface SinkCatalogControl extends PipelineCapability {

  /** The service's address as clients use it, for the run record. */
  String address();

  /**
   * Arms the service: the next {@code commits} successful commits to {@code table} (its name
   * without namespace) are applied, and each one's response is replaced by a server error whose
   * message is {@code message}, so the committing client cannot know whether its commit landed.
   */
  void loseCommitResponses(String table, int commits, String message);

  /** The commits applied whose responses were lost so far, oldest first. */
  List<LostCommitResponse> lostCommitResponses();

  /** Stops accepting connections and closes the open ones: clients are refused. */
  void stopListening() throws Exception;

  /** Accepts connections again on the same address. */
  void startListening() throws Exception;

  /** Whether the service answers a request of the lab's own now. */
  boolean answers();

  /**
   * A commit the service applied and whose response it lost.
   *
   * @param table the table's name without namespace
   * @param at when the response was replaced
   * @param metadataLocation the table's new metadata file, as the lost response named it
   */
  record LostCommitResponse(String table, Instant at, String metadataLocation) {
    public LostCommitResponse {
      Objects.requireNonNull(table, "table");
      Objects.requireNonNull(at, "at");
      Objects.requireNonNull(metadataLocation, "metadataLocation");
    }
  }
}
