package io.reliabilitylab.pipeline.flink.faults;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.reliabilitylab.spi.fault.FaultPosition;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.CommitStateUnknownException;
import org.apache.iceberg.flink.CatalogLoader;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FaultInjectingCatalogLoaderTest {

  private static final String ID = "srl-fault-5-sink-commit-failure";
  private static final Schema SCHEMA =
      new Schema(Types.NestedField.required(1, "order_id", Types.LongType.get()));
  private static final TableIdentifier CURRENT = TableIdentifier.of("lab", "orders_current");
  private static final TableIdentifier CHANGELOG = TableIdentifier.of("lab", "orders_changelog");

  @TempDir Path temp;

  private CatalogLoader plain;
  private FaultInjectingCatalogLoader faulty;

  @BeforeEach
  void createTables() {
    plain =
        CatalogLoader.hadoop(
            "lab", new Configuration(), Map.of("warehouse", temp.toUri().toString()));
    Catalog catalog = plain.loadCatalog();
    ((SupportsNamespaces) catalog).createNamespace(Namespace.of("lab"));
    catalog.createTable(CURRENT, SCHEMA, PartitionSpec.unpartitioned());
    catalog.createTable(CHANGELOG, SCHEMA, PartitionSpec.unpartitioned());
    faulty =
        FaultInjectingCatalogLoader.wrap(
            plain, Map.of("orders_current", FaultSwitchboard.SINK_COMMIT_CURRENT));
  }

  @AfterEach
  void reset() {
    FaultSwitchboard.reset();
  }

  @Test
  void commitsLikeThePlainCatalogWhenNotArmed() throws Exception {
    Table table = roundTrip(faulty).loadCatalog().loadTable(CURRENT);

    commit(table, 1);
    commit(table, 2);

    assertThat(checkpoints(CURRENT)).containsExactly("1", "2");
    assertThat(table.currentSnapshot().snapshotId())
        .isEqualTo(plain.loadCatalog().loadTable(CURRENT).currentSnapshot().snapshotId());
  }

  @Test
  void failsTheCommitOfCheckpointNBeforeTheSwapOnce() {
    FaultSwitchboard.arm(
        FaultSwitchboard.SINK_COMMIT,
        FaultPosition.parse("around-commit:2:before-swap"),
        FaultAction.THROW,
        ID);
    Table table = faulty.loadCatalog().loadTable(CURRENT);

    commit(table, 1);
    assertThatThrownBy(() -> commit(table, 2))
        .isInstanceOf(InjectedFaultException.class)
        .hasMessageStartingWith(ID)
        .hasMessageContaining("before the metadata swap")
        .hasMessageContaining("checkpoint 2");
    assertThat(checkpoints(CURRENT)).containsExactly("1");

    table.refresh();
    commit(table, 2);
    assertThat(checkpoints(CURRENT)).containsExactly("1", "2");
  }

  @Test
  void failsAfterTheSwapWithTheCommitDone() {
    FaultSwitchboard.arm(
        FaultSwitchboard.SINK_COMMIT,
        new FaultPosition.AtCheckpoint(1),
        FaultAction.FAIL_COMMIT_AFTER_SWAP,
        ID);
    Table table = faulty.loadCatalog().loadTable(CHANGELOG);

    assertThatThrownBy(() -> commit(table, 1))
        .isInstanceOf(InjectedFaultException.class)
        .hasMessageContaining(ID)
        .hasMessageContaining("after the metadata swap");

    assertThat(checkpoints(CHANGELOG)).containsExactly("1");
    assertThat(FaultSwitchboard.firing(ID))
        .hasValueSatisfying(
            firing -> {
              assertThat(firing.checkpointId()).isEqualTo(1L);
              assertThat(firing.point()).isEqualTo("sink-commit");
              assertThat(firing.action()).isEqualTo(FaultAction.FAIL_COMMIT_AFTER_SWAP);
            });
  }

  @Test
  void reportsAnUnknownCommitStateAfterTheSwap() {
    FaultSwitchboard.arm(
        FaultSwitchboard.SINK_COMMIT,
        FaultPosition.parse("around-commit:1:after-swap"),
        FaultAction.COMMIT_STATE_UNKNOWN,
        ID);
    Table table = faulty.loadCatalog().loadTable(CURRENT);

    assertThatThrownBy(() -> commit(table, 1))
        .isInstanceOf(CommitStateUnknownException.class)
        .hasMessageContaining(ID);
    assertThat(checkpoints(CURRENT)).containsExactly("1");
  }

  @Test
  void aTablesOwnPointLeavesTheOtherTableAlone() {
    FaultSwitchboard.arm(
        FaultSwitchboard.SINK_COMMIT_CURRENT,
        new FaultPosition.Now(),
        FaultAction.FAIL_COMMIT_BEFORE_SWAP,
        ID);
    Catalog catalog = faulty.loadCatalog();

    commit(catalog.loadTable(CHANGELOG), 1);
    assertThatThrownBy(() -> commit(catalog.loadTable(CURRENT), 1)).hasMessageContaining(ID);

    assertThat(checkpoints(CHANGELOG)).containsExactly("1");
    assertThat(checkpoints(CURRENT)).isEmpty();
  }

  @Test
  void refusesAnUnknownTablePoint() {
    assertThatThrownBy(() -> FaultInjectingCatalogLoader.wrap(plain, Map.of("t", "sink-kaboom")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("sink-kaboom");
  }

  private static void commit(Table table, long checkpoint) {
    DataFile file =
        DataFiles.builder(PartitionSpec.unpartitioned())
            .withPath(table.location() + "/data/" + checkpoint + ".parquet")
            .withFileSizeInBytes(100)
            .withRecordCount(1)
            .build();
    table
        .newAppend()
        .appendFile(file)
        .set(FaultInjectingTableOperations.MAX_COMMITTED_CHECKPOINT_ID, Long.toString(checkpoint))
        .commit();
  }

  private List<String> checkpoints(TableIdentifier id) {
    Table table = plain.loadCatalog().loadTable(id);
    List<String> found = new java.util.ArrayList<>();
    for (Snapshot snapshot : table.snapshots()) {
      found.add(snapshot.summary().get(FaultInjectingTableOperations.MAX_COMMITTED_CHECKPOINT_ID));
    }
    return found;
  }

  private static CatalogLoader roundTrip(CatalogLoader loader)
      throws IOException, ClassNotFoundException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
      out.writeObject(loader.clone());
    }
    try (ObjectInputStream in =
        new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
      return (CatalogLoader) in.readObject();
    }
  }
}
