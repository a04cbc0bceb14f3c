package io.reliabilitylab.checks.iceberg;

import io.reliabilitylab.spi.data.Column;
import io.reliabilitylab.spi.data.Row;
import io.reliabilitylab.spi.data.TableSchema;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.types.Types;
import org.jspecify.annotations.Nullable;

/** Iceberg records as the lab's rows, for readers that convert every row of a table. */
final class RecordRows {

  private RecordRows() {}

  /**
   * A converter of records to rows of {@code schema} that finds the columns by position, looked up
   * by name once per record layout (a data file's records share one), rather than hashing every
   * column name of every row. Safe to share between threads.
   */
  static Function<Record, Row> of(TableSchema schema) {
    List<Column> columns = schema.columns();
    return new Function<>() {
      private volatile @Nullable Layout layout;

      @Override
      public Row apply(Record record) {
        Layout current = layout;
        if (current == null || current.struct != record.struct()) {
          current = new Layout(record.struct(), positions(record.struct(), columns));
          layout = current;
        }
        List<@Nullable Object> values = new ArrayList<>(columns.size());
        for (int i = 0; i < columns.size(); i++) {
          values.add(IcebergTableReader.value(columns.get(i), record.get(current.positions[i])));
        }
        return new Row(schema, values);
      }
    };
  }

  /** Where a record layout holds each column. */
  private record Layout(Types.StructType struct, int[] positions) {}

  private static int[] positions(Types.StructType struct, List<Column> columns) {
    List<Types.NestedField> fields = struct.fields();
    int[] positions = new int[columns.size()];
    for (int i = 0; i < columns.size(); i++) {
      positions[i] = -1;
      for (int f = 0; f < fields.size(); f++) {
        if (fields.get(f).name().equals(columns.get(i).name())) {
          positions[i] = f;
        }
      }
      if (positions[i] < 0) {
        throw new IllegalStateException("A record of " + struct + " lacks " + columns.get(i));
      }
    }
    return positions;
  }
}
