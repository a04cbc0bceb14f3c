package io.reliabilitylab.checks.iceberg;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import org.apache.iceberg.CatalogProperties;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.rest.RESTCatalog;
import org.apiguardian.api.API;

/**
 * The catalog the checks read Iceberg tables through: a Hadoop catalog on a local directory (the
 * lab's default) or a team's REST catalog, with the properties its clients need (object store
 * endpoint and credentials, warehouse name, OAuth credential). What a run record may show of it
 * ({@link #recorded()}) never holds a secret.
 *
 * <pre>{@code
 * try (IcebergCatalog catalog = IcebergCatalog.rest("http://127.0.0.1:8181", Map.of())) {
 *   Table table = catalog.catalog().loadTable(TableIdentifier.of("lab", "orders_current"));
 * }
 * }</pre>
 */
@API(status = EXPERIMENTAL)
public final class IcebergCatalog implements Closeable {

  /** Property names whose values are secrets: never recorded, never printed. */
  private static final Set<String> SECRET_WORDS =
      Set.of("secret", "token", "credential", "password", "access-key", "session");

  private final Catalog catalog;
  private final String description;
  private final Map<String, String> recorded;
  private final Closeable closer;

  private IcebergCatalog(
      Catalog catalog, String description, Map<String, String> recorded, Closeable closer) {
    this.catalog = catalog;
    this.description = description;
    this.recorded = Map.copyOf(recorded);
    this.closer = closer;
  }

  /** A Hadoop catalog on {@code directory} ({@link IcebergWarehouse}). */
  public static IcebergCatalog hadoop(Path directory) {
    IcebergWarehouse warehouse = IcebergWarehouse.open(directory);
    return new IcebergCatalog(
        warehouse.catalog(),
        "Hadoop catalog " + warehouse.directory(),
        recordedHadoop(warehouse.directory()),
        warehouse::close);
  }

  /** What a run record shows of a Hadoop catalog on {@code directory}. */
  static Map<String, String> recordedHadoop(Path directory) {
    return Map.of("iceberg.catalog", "hadoop", "iceberg.warehouse", directory.toString());
  }

  /** What a run record shows of a REST catalog: its URI and properties, secrets masked. */
  static Map<String, String> recordedRest(String uri, Map<String, String> properties) {
    Map<String, String> recorded = new TreeMap<>();
    recorded.put("iceberg.catalog", "rest");
    recorded.put("iceberg.catalog-uri", uri);
    properties.forEach(
        (name, value) ->
            recorded.put(
                "iceberg.catalog-property." + name,
                secret(name) ? "(secret, not recorded)" : value));
    return recorded;
  }

  /**
   * A REST catalog at {@code uri}, with {@code properties} passed to its client as they are (e.g.
   * {@code warehouse}, {@code credential}, {@code io-impl}, {@code s3.endpoint}).
   *
   * @throws IllegalArgumentException when the catalog does not answer, in one line naming it
   */
  public static IcebergCatalog rest(String uri, Map<String, String> properties) {
    Objects.requireNonNull(uri, "uri");
    Objects.requireNonNull(properties, "properties");
    Map<String, String> all = new HashMap<>(properties);
    all.put(CatalogProperties.URI, uri);
    RESTCatalog client = new RESTCatalog();
    try {
      client.initialize(IcebergWarehouse.CATALOG_NAME, all);
    } catch (RuntimeException e) {
      closeQuietly(client);
      throw new IllegalArgumentException(
          "the Iceberg REST catalog at "
              + uri
              + " did not answer ("
              + firstLine(e)
              + "): check --catalog-uri and that the catalog runs",
          e);
    }
    return new IcebergCatalog(client, "REST catalog " + uri, recordedRest(uri, properties), client);
  }

  /** Whether a catalog property's value is a secret. */
  public static boolean secret(String propertyName) {
    String name = propertyName.toLowerCase(Locale.ROOT);
    return SECRET_WORDS.stream().anyMatch(name::contains);
  }

  /** Loads a table with its latest metadata. */
  public Table load(TableIdentifier id) {
    return catalog.loadTable(id);
  }

  /** The catalog, to load and list tables. */
  public Catalog catalog() {
    return catalog;
  }

  /** One phrase naming the catalog, e.g. {@code REST catalog http://127.0.0.1:8181}. */
  public String description() {
    return description;
  }

  /** What a run record may show of the catalog: its kind, location and non-secret properties. */
  public Map<String, String> recorded() {
    return recorded;
  }

  @Override
  public void close() throws IOException {
    closer.close();
  }

  private static String firstLine(Throwable e) {
    Throwable root = e;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    String message = String.valueOf(root.getMessage());
    int newline = message.indexOf('\n');
    return root.getClass().getSimpleName()
        + ": "
        + (newline < 0 ? message : message.substring(0, newline));
  }

  private static void closeQuietly(Closeable closeable) {
    try {
      closeable.close();
    } catch (IOException | RuntimeException ignored) {
      // the catalog never answered: nothing to release that matters
    }
  }
}
