package io.reliabilitylab.checks.iceberg;

import static org.apache.iceberg.types.Types.NestedField.optional;
import static org.apache.iceberg.types.Types.NestedField.required;
import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.reliabilitylab.spi.data.TableSchema;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.types.Types;
import org.apiguardian.api.API;

/**
 * The two Iceberg tables of the direct pipeline: their names, schemas and properties.
 *
 * <p>Both are format v2 and unpartitioned. Partitioning by {@code bucket(order_id)} would spread
 * each checkpoint's writes over one data file (and, for the current table, one equality-delete
 * file) per bucket and writer: with a commit every second that multiplies small files and slows
 * reads, while the lab's tables stay small. The Flink sink keys the current table's writers by
 * {@code order_id} either way, so partitioning would buy no ordering guarantee.
 */
@API(status = EXPERIMENTAL)
public final class OrdersTables {

  /** The default namespace in the catalog. */
  public static final String NAMESPACE = "lab";

  /** The upserted table: one row per live {@code order_id}. */
  public static final String CURRENT = "orders_current";

  /** The appended table: one row per source change envelope. */
  public static final String CHANGELOG = "orders_changelog";

  /** The column holding the unique id of each write, in both tables. */
  public static final String EVENT_ID = "event_id";

  /** The changelog table's operation column: r, c, u or d. */
  public static final String OP = "op";

  /**
   * The columns of the current table, in the lab's canonical order ({@link TableSchema#ORDERS}).
   */
  public static final Schema CURRENT_SCHEMA =
      new Schema(
          List.of(
              required(1, "order_id", Types.LongType.get()),
              optional(2, "business_key", Types.StringType.get()),
              optional(3, "customer_id", Types.LongType.get()),
              optional(4, "amount_cents", Types.LongType.get()),
              optional(5, "status", Types.StringType.get()),
              optional(6, "event_id", Types.LongType.get()),
              optional(7, "seed", Types.IntegerType.get()),
              optional(8, "updated_at", Types.TimestampType.withZone())),
          Set.of(1));

  /**
   * The columns of the changelog table: op and event ids, the row image (for {@code d} the deleted
   * row), then the source position and timestamp.
   */
  public static final Schema CHANGELOG_SCHEMA =
      new Schema(
          required(1, "op", Types.StringType.get()),
          optional(2, "event_id", Types.LongType.get()),
          optional(3, "before_event_id", Types.LongType.get()),
          required(4, "order_id", Types.LongType.get()),
          optional(5, "business_key", Types.StringType.get()),
          optional(6, "customer_id", Types.LongType.get()),
          optional(7, "amount_cents", Types.LongType.get()),
          optional(8, "status", Types.StringType.get()),
          optional(9, "seed", Types.IntegerType.get()),
          optional(10, "updated_at", Types.TimestampType.withZone()),
          optional(11, "binlog_file", Types.StringType.get()),
          optional(12, "binlog_pos", Types.LongType.get()),
          optional(13, "row_index", Types.IntegerType.get()),
          optional(14, "gtid", Types.StringType.get()),
          optional(15, "source_ts", Types.TimestampType.withZone()));

  /** No partitioning (see the class comment). */
  public static final PartitionSpec PARTITIONING = PartitionSpec.unpartitioned();

  /** Format v2 (row-level deletes) for both tables. */
  public static final Map<String, String> PROPERTIES = Map.of(TableProperties.FORMAT_VERSION, "2");

  private OrdersTables() {}

  /** The lab schema of the current table's rows, named after the Iceberg table. */
  public static TableSchema currentRowSchema(String tableName) {
    return TableSchema.ORDERS.withName(tableName);
  }
}
