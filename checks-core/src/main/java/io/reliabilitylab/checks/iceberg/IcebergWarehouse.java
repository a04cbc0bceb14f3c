package io.reliabilitylab.checks.iceberg;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.CatalogProperties;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.apiguardian.api.API;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An Iceberg Hadoop catalog on a local directory: opens, creates and loads tables. Closing it
 * releases the catalog; the files stay.
 *
 * <pre>{@code
 * try (IcebergWarehouse warehouse = IcebergWarehouse.open(Path.of("target/warehouse"))) {
 *   warehouse.createOrdersTablesIfAbsent(OrdersTables.NAMESPACE);
 *   Table current = warehouse.load(TableIdentifier.of("lab", OrdersTables.CURRENT));
 * }
 * }</pre>
 */
@API(status = EXPERIMENTAL)
public final class IcebergWarehouse implements AutoCloseable {

  /**
   * The catalog name used by the lab (and by the job's catalog loader): not the namespace's name
   * {@code lab}, so that a table reads {@code warehouse.lab.orders_current}, not {@code
   * lab.lab.orders_current}.
   */
  public static final String CATALOG_NAME = "warehouse";

  private static final Logger LOG = LoggerFactory.getLogger(IcebergWarehouse.class);

  private static final Configuration HADOOP_DEFAULTS = loadedDefaults();

  private final Path directory;
  private final HadoopCatalog catalog;

  private IcebergWarehouse(Path directory, HadoopCatalog catalog) {
    this.directory = directory;
    this.catalog = catalog;
  }

  /** Opens (and creates, if absent) a warehouse directory. */
  public static IcebergWarehouse open(Path directory) {
    Objects.requireNonNull(directory, "directory");
    Path absolute = directory.toAbsolutePath().normalize();
    try {
      Files.createDirectories(absolute);
    } catch (IOException e) {
      throw new UncheckedIOException(
          "Cannot create the Iceberg warehouse directory " + absolute + ": check its permissions",
          e);
    }
    HadoopCatalog catalog = new HadoopCatalog();
    catalog.setConf(hadoopConfiguration());
    catalog.initialize(CATALOG_NAME, catalogProperties(absolute));
    return new IcebergWarehouse(absolute, catalog);
  }

  /**
   * The catalog properties of a Hadoop catalog on {@code directory}, with the lab's lock manager
   * ({@link JvmLockManager}: closing one catalog must not break another's commit).
   */
  public static Map<String, String> catalogProperties(Path directory) {
    return Map.of(
        "warehouse",
        warehouseUri(directory),
        CatalogProperties.LOCK_IMPL,
        JvmLockManager.class.getName());
  }

  /** The warehouse location as a {@code file:} URI, as Hadoop's file system wants it. */
  public static String warehouseUri(Path directory) {
    return directory.toAbsolutePath().normalize().toUri().toString();
  }

  /**
   * A Hadoop configuration with the defaults, but a local file system that sets permissions without
   * spawning {@code chmod} ({@link NioLocalFileSystem}). Hadoop caches one {@code file:} file
   * system per JVM and user: the first configuration to open one decides; the lab's are all made
   * here. Each is a copy of one loaded template: a new configuration parses Hadoop's default XML
   * resources again the first time it is read, and the lab makes one per catalog and table loader.
   */
  public static Configuration hadoopConfiguration() {
    Configuration configuration = new Configuration(HADOOP_DEFAULTS);
    // as a new one would: the caller's context class loader (a job's, on a TaskManager), not the
    // one current when the template was made
    ClassLoader context = Thread.currentThread().getContextClassLoader();
    configuration.setClassLoader(context != null ? context : Configuration.class.getClassLoader());
    return configuration;
  }

  private static Configuration loadedDefaults() {
    Configuration configuration = new Configuration();
    configuration.set("fs.file.impl", NioLocalFileSystem.class.getName());
    configuration.size(); // loads the default resources now, so that each copy takes them parsed
    return configuration;
  }

  /** The warehouse directory. */
  public Path directory() {
    return directory;
  }

  /** The catalog itself, for callers that need more than this class offers. */
  public HadoopCatalog catalog() {
    return catalog;
  }

  /** Creates a table unless it exists, and returns it. */
  public Table createIfAbsent(
      TableIdentifier id, Schema schema, PartitionSpec spec, Map<String, String> properties) {
    return CatalogTables.createIfAbsent(catalog, id, schema, spec, properties);
  }

  /**
   * Creates {@code orders_current} and {@code orders_changelog} in a namespace unless they exist.
   */
  public void createOrdersTablesIfAbsent(String namespace) {
    CatalogTables.createOrdersTablesIfAbsent(catalog, namespace);
  }

  /** Loads a table with its latest metadata. */
  public Table load(TableIdentifier id) {
    return catalog.loadTable(id);
  }

  @Override
  public void close() {
    try {
      catalog.close();
    } catch (IOException e) {
      LOG.warn("Closing the Iceberg catalog on {} failed", directory, e);
    }
  }
}
