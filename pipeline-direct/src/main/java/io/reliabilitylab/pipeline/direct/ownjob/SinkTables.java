package io.reliabilitylab.pipeline.direct.ownjob;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.reliabilitylab.checks.iceberg.OrdersTables;
import io.reliabilitylab.checks.iceberg.SinkCatalog;
import io.reliabilitylab.pipeline.flink.envelope.ChangeEnvelope;
import io.reliabilitylab.pipeline.flink.job.OrdersJobSettings;
import io.reliabilitylab.pipeline.flink.job.OrdersTopology;
import io.reliabilitylab.pipeline.flink.sink.EnvelopeRows;
import java.util.List;
import java.util.Objects;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.iceberg.Schema;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.flink.CatalogLoader;
import org.apache.iceberg.flink.TableLoader;
import org.apiguardian.api.API;

/**
 * The two Iceberg tables the lab reads and a team's job writes: {@code orders_current} (upserted on
 * {@code order_id}) and {@code orders_changelog} (one appended row per change envelope), created by
 * the lab (format v2, unpartitioned) before the job is built. A job either hands its envelopes to
 * {@link #writeReferenceSinks} or writes the tables with sinks of its own, from {@link
 * #tableLoader} and the row helpers.
 *
 * <pre>{@code
 * // the lab's sinks
 * sinks.writeReferenceSinks(changes);
 * // or a sink of the team's own, here for the changelog
 * FlinkSink.forRowData(sinks.changelogRows(changes))
 *     .tableLoader(sinks.tableLoader(sinks.changelog()))
 *     .uidPrefix("team-changelog")
 *     .append();
 * }</pre>
 *
 * <p>Either way the sinks must commit on checkpoints through Iceberg's Flink sink, which records
 * each commit's {@code flink.max-committed-checkpoint-id}: the lab's recovery proofs and its
 * current-versus-changelog check read it.
 */
@API(status = EXPERIMENTAL)
public final class SinkTables {

  private final OrdersJobSettings settings;

  SinkTables(OrdersJobSettings settings) {
    this.settings = Objects.requireNonNull(settings, "settings");
  }

  /** The catalog both tables are in: a Hadoop warehouse directory or a REST catalog. */
  public SinkCatalog sinkCatalog() {
    return settings.catalog();
  }

  /** The catalog both tables are in, as Iceberg's Flink sink loads it. */
  public CatalogLoader catalog() {
    return OrdersTopology.catalogLoader(settings.catalog());
  }

  /** {@code orders_current}: the source table's rows as they are now. */
  public TableIdentifier current() {
    return TableIdentifier.of(settings.namespace(), OrdersTables.CURRENT);
  }

  /** {@code orders_changelog}: one row per change envelope. */
  public TableIdentifier changelog() {
    return TableIdentifier.of(settings.namespace(), OrdersTables.CHANGELOG);
  }

  /**
   * A loader of {@link #current()} or {@link #changelog()} for an Iceberg sink.
   *
   * @throws IllegalArgumentException for any other table
   */
  public TableLoader tableLoader(TableIdentifier table) {
    if (!table.equals(current()) && !table.equals(changelog())) {
      throw new IllegalArgumentException(
          "The lab reads only " + current() + " and " + changelog() + ", not " + table);
    }
    return OrdersTopology.tableLoader(settings, table.name());
  }

  /** The current table's Iceberg schema; its identifier field is {@code order_id}. */
  public Schema currentSchema() {
    return OrdersTables.CURRENT_SCHEMA;
  }

  /** The changelog table's Iceberg schema. */
  public Schema changelogSchema() {
    return OrdersTables.CHANGELOG_SCHEMA;
  }

  /** The current table's rows as Flink rows, in its column order. */
  public RowType currentRowType() {
    return EnvelopeRows.CURRENT_TYPE;
  }

  /** The changelog table's rows as Flink rows, in its column order. */
  public RowType changelogRowType() {
    return EnvelopeRows.CHANGELOG_TYPE;
  }

  /** The columns an upserting sink of the current table keys its equality deletes on. */
  public List<String> currentEqualityColumns() {
    return List.of("order_id");
  }

  /** The job's parallelism, which the reference sinks write with. */
  public int parallelism() {
    return settings.parallelism();
  }

  /**
   * The current table's changes of each envelope ({@code +I}, {@code -U}/{@code +U}, {@code -D}),
   * for an upserting sink of the team's own; operator uid {@code to-current-rows}.
   */
  public DataStream<RowData> currentRows(DataStream<ChangeEnvelope> changes) {
    return OrdersTopology.currentRows(changes);
  }

  /**
   * One changelog row per envelope, for an appending sink of the team's own; operator uid {@code
   * to-changelog-rows}.
   */
  public DataStream<RowData> changelogRows(DataStream<ChangeEnvelope> changes) {
    return OrdersTopology.changelogRows(changes);
  }

  /**
   * Writes {@code changes} to both tables with the lab's reference sinks, as the direct pipeline
   * does (Iceberg's {@code FlinkSink}, exactly once, uid prefixes {@code iceberg-orders-current}
   * and {@code iceberg-orders-changelog}). Call it once per job; it adds the row operators of
   * {@link #currentRows} and {@link #changelogRows} itself.
   */
  public void writeReferenceSinks(DataStream<ChangeEnvelope> changes) {
    OrdersTopology.sinkTo(changes, settings);
  }

  @Override
  public String toString() {
    return "SinkTables["
        + current()
        + ", "
        + changelog()
        + " in "
        + settings.catalog().recorded()
        + "]";
  }
}
