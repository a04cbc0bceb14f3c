package io.reliabilitylab.source.postgres;

import io.reliabilitylab.spi.data.Column;
import io.reliabilitylab.spi.data.Row;
import io.reliabilitylab.spi.data.TableSchema;
import java.math.BigDecimal;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;

/**
 * Converts between the spi's row values and PostgreSQL parameters and columns. Timestamps are
 * {@code timestamp} (without time zone) holding UTC wall-clock time, bound and read as {@link
 * LocalDateTime}, which pgjdbc carries to the microsecond whatever the JVM's zone.
 */
final class PostgresRows {

  private PostgresRows() {}

  /** Binds the row's values, in canonical column order, from parameter {@code first} on. */
  static void bind(PreparedStatement statement, int first, Row row) throws SQLException {
    List<Column> columns = row.schema().columns();
    for (int i = 0; i < columns.size(); i++) {
      bind(statement, first + i, columns.get(i), row.get(i));
    }
  }

  static void bind(PreparedStatement statement, int index, Column column, @Nullable Object value)
      throws SQLException {
    if (value == null) {
      statement.setNull(index, sqlType(column));
      return;
    }
    switch (column.type()) {
      case BIGINT -> statement.setLong(index, (Long) value);
      case INT -> statement.setInt(index, (Integer) value);
      case VARCHAR -> statement.setString(index, (String) value);
      case BOOLEAN -> statement.setBoolean(index, (Boolean) value);
      case DOUBLE -> statement.setDouble(index, (Double) value);
      case DECIMAL -> statement.setBigDecimal(index, (BigDecimal) value);
      case TIMESTAMP ->
          statement.setObject(index, LocalDateTime.ofInstant((Instant) value, ZoneOffset.UTC));
    }
  }

  /** Reads a row of {@code schema} from the current result row, columns in canonical order. */
  static Row read(ResultSet result, TableSchema schema) throws SQLException {
    List<Column> columns = schema.columns();
    List<@Nullable Object> values = new ArrayList<>(columns.size());
    for (int i = 0; i < columns.size(); i++) {
      values.add(read(result, i + 1, columns.get(i)));
    }
    return new Row(schema, values);
  }

  private static @Nullable Object read(ResultSet result, int index, Column column)
      throws SQLException {
    Object value =
        switch (column.type()) {
          case BIGINT -> result.getLong(index);
          case INT -> result.getInt(index);
          case VARCHAR -> result.getString(index);
          case BOOLEAN -> result.getBoolean(index);
          case DOUBLE -> result.getDouble(index);
          case DECIMAL -> result.getBigDecimal(index);
          case TIMESTAMP -> {
            LocalDateTime local = result.getObject(index, LocalDateTime.class);
            yield local == null ? null : local.toInstant(ZoneOffset.UTC);
          }
        };
    return result.wasNull() ? null : value;
  }

  private static int sqlType(Column column) {
    return switch (column.type()) {
      case BIGINT -> Types.BIGINT;
      case INT -> Types.INTEGER;
      case VARCHAR -> Types.VARCHAR;
      case BOOLEAN -> Types.BOOLEAN;
      case DOUBLE -> Types.DOUBLE;
      case DECIMAL -> Types.NUMERIC;
      case TIMESTAMP -> Types.TIMESTAMP;
    };
  }

  /** The schema's column names, quoted where SQL needs it, comma-separated. */
  static String columnList(TableSchema schema) {
    return schema.columns().stream()
        .map(column -> Identifiers.quote(column.name()))
        .collect(Collectors.joining(", "));
  }
}
