package io.reliabilitylab.checks.iceberg;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import org.apache.iceberg.CatalogProperties;
import org.apiguardian.api.API;

/**
 * Where a pipeline's sink tables live, as the job, the checks and the lab's maintenance all open
 * them: a Hadoop catalog on a local directory (the lab's default, fastest), or a REST catalog with
 * the properties its clients need (the object store's FileIO, endpoint and credentials).
 *
 * <pre>{@code
 * SinkCatalog sink = SinkCatalog.rest("http://127.0.0.1:8181", Map.of("io-impl", S3_FILE_IO));
 * try (IcebergCatalog catalog = sink.open()) {
 *   Table current = catalog.catalog().loadTable(TableIdentifier.of("lab", "orders_current"));
 * }
 * }</pre>
 */
@API(status = EXPERIMENTAL)
public sealed interface SinkCatalog {

  /** A Hadoop catalog on {@code directory}. */
  static SinkCatalog hadoop(Path directory) {
    return new Hadoop(directory.toAbsolutePath().normalize());
  }

  /** A REST catalog at {@code uri}; {@code properties} go to every client as they are. */
  static SinkCatalog rest(String uri, Map<String, String> properties) {
    return new Rest(uri, properties);
  }

  /** {@code hadoop} or {@code rest}. */
  String kind();

  /**
   * The properties an Iceberg catalog client of this kind is initialized with, secrets included:
   * for a job's catalog loader, never for a record or a log line ({@link #recorded()}).
   */
  Map<String, String> clientProperties();

  /** Opens a client of the catalog; closing it releases the client, not the tables. */
  IcebergCatalog open();

  /** What a run record may show: the catalog's kind, location and non-secret properties. */
  Map<String, String> recorded();

  /**
   * Whether writers in several JVMs may commit to its tables at once: a REST catalog resolves
   * concurrent commits itself; a Hadoop catalog on a local disk relies on a lock in one JVM.
   */
  boolean commitsAcrossProcesses();

  /** A Hadoop catalog on a local directory. */
  record Hadoop(Path directory) implements SinkCatalog {
    public Hadoop {
      Objects.requireNonNull(directory, "directory");
    }

    @Override
    public String kind() {
      return "hadoop";
    }

    @Override
    public Map<String, String> clientProperties() {
      return IcebergWarehouse.catalogProperties(directory);
    }

    @Override
    public IcebergCatalog open() {
      return IcebergCatalog.hadoop(directory);
    }

    @Override
    public Map<String, String> recorded() {
      return IcebergCatalog.recordedHadoop(directory);
    }

    @Override
    public boolean commitsAcrossProcesses() {
      return false;
    }
  }

  /**
   * A REST catalog.
   *
   * @param uri the service's base URI
   * @param properties its clients' properties (e.g. {@code io-impl}, {@code s3.endpoint}, {@code
   *     credential}); a secret among them is never recorded
   */
  record Rest(String uri, Map<String, String> properties) implements SinkCatalog {
    public Rest {
      Objects.requireNonNull(uri, "uri");
      properties = Map.copyOf(properties);
    }

    @Override
    public String kind() {
      return "rest";
    }

    @Override
    public Map<String, String> clientProperties() {
      Map<String, String> all = new HashMap<>(properties);
      all.put(CatalogProperties.URI, uri);
      return Map.copyOf(all);
    }

    @Override
    public IcebergCatalog open() {
      return IcebergCatalog.rest(uri, properties);
    }

    @Override
    public Map<String, String> recorded() {
      return IcebergCatalog.recordedRest(uri, properties);
    }

    @Override
    public boolean commitsAcrossProcesses() {
      return true;
    }

    /** Names the URI and the properties, their secrets masked. */
    @Override
    public String toString() {
      return "Rest[" + recorded() + "]";
    }
  }
}
