package io.reliabilitylab.pipeline.flink;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.reliabilitylab.checks.iceberg.IcebergCatalog;
import io.reliabilitylab.checks.iceberg.IcebergTableReader;
import io.reliabilitylab.checks.iceberg.OrdersTables;
import io.reliabilitylab.pipeline.flink.job.OrdersJobSettings;
import io.reliabilitylab.pipeline.flink.maintenance.IcebergTableMaintenance;
import io.reliabilitylab.spi.data.ChangeOp;
import io.reliabilitylab.spi.data.Changelog;
import io.reliabilitylab.spi.data.RowSet;
import io.reliabilitylab.spi.pipeline.SnapshotInfo;
import io.reliabilitylab.spi.pipeline.TableAccess;
import io.reliabilitylab.spi.pipeline.TableMaintenance;
import java.io.IOException;
import java.util.List;
import java.util.function.Supplier;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A Flink pipeline's two Iceberg tables as the lab reads and compacts them ({@link TableAccess},
 * {@link TableMaintenance}), through one client of the sink's catalog (a Hadoop warehouse or a REST
 * catalog) that lives as long as the pipeline.
 */
@API(status = INTERNAL)
public final class SinkTableAccess implements TableAccess, AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(SinkTableAccess.class);

  private final Supplier<String> pipelineName;
  private final IcebergCatalog catalog;
  private final String namespace;
  private final TableMaintenance maintenance;

  SinkTableAccess(Supplier<String> pipelineName, OrdersJobSettings settings) {
    this.pipelineName = pipelineName;
    this.catalog = settings.catalog().open();
    this.namespace = settings.namespace();
    this.maintenance = IcebergTableMaintenance.builder(this::load).build();
  }

  /** Compaction of the two tables, committing through the same catalog. */
  TableMaintenance maintenance() {
    return maintenance;
  }

  @Override
  public RowSet source() {
    throw new UnsupportedOperationException(
        "The harness reads the source itself (SourceRowReader); the "
            + pipelineName.get()
            + " pipeline does not");
  }

  @Override
  public List<SnapshotInfo> snapshots(String table) {
    return IcebergTableReader.snapshots(load(table));
  }

  @Override
  public RowSet current(long snapshotId) {
    return IcebergTableReader.current(load(OrdersTables.CURRENT), snapshotId);
  }

  @Override
  public Changelog changelog(long snapshotId) {
    return IcebergTableReader.changelog(load(OrdersTables.CHANGELOG), snapshotId);
  }

  @Override
  public Changelog changelogAppended(
      @Nullable Long fromSnapshotExclusive, long toSnapshotInclusive) {
    return IcebergTableReader.changelogAppended(
        load(OrdersTables.CHANGELOG), fromSnapshotExclusive, toSnapshotInclusive);
  }

  @Override
  public boolean changelogContains(long snapshotId, long eventId) {
    return IcebergTableReader.changelogContains(load(OrdersTables.CHANGELOG), snapshotId, eventId);
  }

  @Override
  public boolean changelogContains(long snapshotId, ChangeOp op, long eventId) {
    return IcebergTableReader.changelogContains(
        load(OrdersTables.CHANGELOG), snapshotId, op, eventId);
  }

  @Override
  public String currentTable() {
    return OrdersTables.CURRENT;
  }

  @Override
  public String changelogTable() {
    return OrdersTables.CHANGELOG;
  }

  /** Loads a table of the pipeline's namespace with its latest metadata. */
  private Table load(String table) {
    return catalog.load(TableIdentifier.of(namespace, table));
  }

  /** Releases the catalog client; the tables stay. */
  @Override
  public void close() {
    try {
      catalog.close();
    } catch (IOException e) {
      LOG.warn("Closing the sink's catalog client ({}) failed: {}", catalog.description(), e);
    }
  }
}
