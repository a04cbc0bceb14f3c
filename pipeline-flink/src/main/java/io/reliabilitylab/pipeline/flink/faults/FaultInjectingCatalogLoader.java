package io.reliabilitylab.pipeline.flink.faults;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.flink.CatalogLoader;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * An Iceberg {@link CatalogLoader} that wraps another one: its tables commit through {@link
 * FaultInjectingTableOperations}, the {@value FaultSwitchboard#SINK_COMMIT} fault point (plus a
 * table's own point, if given). Transparent until a point is armed.
 *
 * <pre>{@code
 * CatalogLoader catalog = FaultInjectingCatalogLoader.wrap(
 *     CatalogLoader.hadoop("warehouse", new Configuration(), properties),
 *     Map.of("orders_current", FaultSwitchboard.SINK_COMMIT_CURRENT));
 * TableLoader loader = TableLoader.fromCatalog(catalog, TableIdentifier.of("lab", "orders_current"));
 * }</pre>
 */
@API(status = EXPERIMENTAL)
public final class FaultInjectingCatalogLoader implements CatalogLoader {

  private static final long serialVersionUID = 1L;

  private final CatalogLoader delegate;
  private final LinkedHashMap<String, String> tablePoints;
  private final @Nullable String faultChannel;

  private FaultInjectingCatalogLoader(
      CatalogLoader delegate, Map<String, String> tablePoints, @Nullable String faultChannel) {
    this.delegate = delegate;
    this.tablePoints = new LinkedHashMap<>(tablePoints);
    this.faultChannel = faultChannel;
  }

  /**
   * Wraps {@code delegate}; every table answers to {@value FaultSwitchboard#SINK_COMMIT}, and a
   * table named in {@code tablePoints} (by its name without namespace) also to its own point.
   */
  public static FaultInjectingCatalogLoader wrap(
      CatalogLoader delegate, Map<String, String> tablePoints) {
    return wrap(delegate, tablePoints, null);
  }

  /**
   * Wraps {@code delegate} as {@link #wrap(CatalogLoader, Map)} does; a catalog it loads (in the
   * sink's writers and committers, on the TaskManagers) also watches the {@link FaultChannel} in
   * {@code faultChannel}, if not null.
   */
  public static FaultInjectingCatalogLoader wrap(
      CatalogLoader delegate, Map<String, String> tablePoints, @Nullable Path faultChannel) {
    Objects.requireNonNull(delegate, "delegate");
    Objects.requireNonNull(tablePoints, "tablePoints");
    tablePoints.forEach(
        (table, point) -> {
          if (!FaultSwitchboard.points().contains(point)) {
            throw new IllegalArgumentException(
                "Table "
                    + table
                    + " names an unknown fault point '"
                    + point
                    + "'; known: "
                    + String.join(", ", FaultSwitchboard.points()));
          }
        });
    return new FaultInjectingCatalogLoader(
        delegate,
        tablePoints,
        faultChannel == null ? null : faultChannel.toAbsolutePath().toString());
  }

  @Override
  public Catalog loadCatalog() {
    FaultChannelWatcher.watch(faultChannel);
    return new FaultInjectingCatalog(delegate.loadCatalog(), tablePoints);
  }

  @Override
  @SuppressWarnings("MethodDoesntCallSuperMethod")
  public FaultInjectingCatalogLoader clone() {
    return new FaultInjectingCatalogLoader(delegate.clone(), tablePoints, faultChannel);
  }

  @Override
  public String toString() {
    return "FaultInjectingCatalogLoader{"
        + delegate
        + ", table points "
        + tablePoints
        + (faultChannel == null ? "" : ", fault channel " + faultChannel)
        + "}";
  }
}
