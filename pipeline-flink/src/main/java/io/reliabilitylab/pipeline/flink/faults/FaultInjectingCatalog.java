package io.reliabilitylab.pipeline.flink.faults;

import java.io.Closeable;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.BaseTable;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.Transaction;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;

/** A catalog whose loaded tables commit through {@link FaultInjectingTableOperations}. */
final class FaultInjectingCatalog implements Catalog, Closeable {

  private final Catalog delegate;
  private final Map<String, String> tablePoints;

  FaultInjectingCatalog(Catalog delegate, Map<String, String> tablePoints) {
    this.delegate = delegate;
    this.tablePoints = tablePoints;
  }

  @Override
  public Table loadTable(TableIdentifier identifier) {
    Table table = delegate.loadTable(identifier);
    if (!(table instanceof HasTableOperations withOperations)) {
      // Metadata tables and the like never commit: nothing to inject into.
      return table;
    }
    List<String> points = new ArrayList<>(2);
    points.add(FaultSwitchboard.SINK_COMMIT);
    String own = tablePoints.get(identifier.name());
    if (own != null) {
      points.add(own);
    }
    FaultInjectingTableOperations operations =
        new FaultInjectingTableOperations(withOperations.operations(), points, table.name());
    return table instanceof BaseTable base
        ? new BaseTable(operations, table.name(), base.reporter())
        : new BaseTable(operations, table.name());
  }

  @Override
  public String name() {
    return delegate.name();
  }

  @Override
  public List<TableIdentifier> listTables(Namespace namespace) {
    return delegate.listTables(namespace);
  }

  @Override
  public boolean tableExists(TableIdentifier identifier) {
    return delegate.tableExists(identifier);
  }

  @Override
  public Table createTable(
      TableIdentifier identifier,
      Schema schema,
      PartitionSpec spec,
      String location,
      Map<String, String> properties) {
    return delegate.createTable(identifier, schema, spec, location, properties);
  }

  @Override
  public Transaction newCreateTableTransaction(
      TableIdentifier identifier,
      Schema schema,
      PartitionSpec spec,
      String location,
      Map<String, String> properties) {
    return delegate.newCreateTableTransaction(identifier, schema, spec, location, properties);
  }

  @Override
  public Transaction newReplaceTableTransaction(
      TableIdentifier identifier,
      Schema schema,
      PartitionSpec spec,
      String location,
      Map<String, String> properties,
      boolean orCreate) {
    return delegate.newReplaceTableTransaction(
        identifier, schema, spec, location, properties, orCreate);
  }

  @Override
  public TableBuilder buildTable(TableIdentifier identifier, Schema schema) {
    return delegate.buildTable(identifier, schema);
  }

  @Override
  public boolean dropTable(TableIdentifier identifier, boolean purge) {
    return delegate.dropTable(identifier, purge);
  }

  @Override
  public void renameTable(TableIdentifier from, TableIdentifier to) {
    delegate.renameTable(from, to);
  }

  @Override
  public void invalidateTable(TableIdentifier identifier) {
    delegate.invalidateTable(identifier);
  }

  @Override
  public Table registerTable(TableIdentifier identifier, String metadataFileLocation) {
    return delegate.registerTable(identifier, metadataFileLocation);
  }

  @Override
  public void close() throws IOException {
    if (delegate instanceof Closeable closeable) {
      closeable.close();
    }
  }

  @Override
  public String toString() {
    return "FaultInjectingCatalog{" + delegate + "}";
  }
}
