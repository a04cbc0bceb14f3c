package io.reliabilitylab.checks.iceberg;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.Map;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.AlreadyExistsException;
import org.apiguardian.api.API;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Creates tables in any catalog unless they exist: a Hadoop warehouse or a REST catalog. */
@API(status = EXPERIMENTAL)
public final class CatalogTables {

  private static final Logger LOG = LoggerFactory.getLogger(CatalogTables.class);

  private CatalogTables() {}

  /** Creates a table (and its namespace) unless it exists, and returns it. */
  public static Table createIfAbsent(
      Catalog catalog,
      TableIdentifier id,
      Schema schema,
      PartitionSpec spec,
      Map<String, String> properties) {
    if (catalog instanceof SupportsNamespaces namespaces
        && !namespaces.namespaceExists(id.namespace())) {
      try {
        namespaces.createNamespace(id.namespace());
      } catch (AlreadyExistsException e) {
        // another client created it between the check and the create
      }
    }
    if (catalog.tableExists(id)) {
      return catalog.loadTable(id);
    }
    try {
      Table table = catalog.createTable(id, schema, spec, properties);
      LOG.info("Created Iceberg table {} at {}", id, table.location());
      return table;
    } catch (AlreadyExistsException e) {
      // Another process created it between the check and the create: use theirs.
      return catalog.loadTable(id);
    }
  }

  /**
   * Creates {@code orders_current} and {@code orders_changelog} in a namespace unless they exist.
   */
  public static void createOrdersTablesIfAbsent(Catalog catalog, String namespace) {
    Namespace ns = Namespace.of(namespace);
    createIfAbsent(
        catalog,
        TableIdentifier.of(ns, OrdersTables.CURRENT),
        OrdersTables.CURRENT_SCHEMA,
        OrdersTables.PARTITIONING,
        OrdersTables.PROPERTIES);
    createIfAbsent(
        catalog,
        TableIdentifier.of(ns, OrdersTables.CHANGELOG),
        OrdersTables.CHANGELOG_SCHEMA,
        OrdersTables.PARTITIONING,
        OrdersTables.PROPERTIES);
  }
}
