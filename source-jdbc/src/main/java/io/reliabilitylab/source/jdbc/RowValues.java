package io.reliabilitylab.source.jdbc;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

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
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * Converts between the spi's row values and JDBC parameters and columns. A {@code TIMESTAMP} holds
 * UTC wall-clock time; how it is bound is the database's ({@link #UTC_TEXT}, {@link
 * #LOCAL_DATE_TIME}); it is read back as a {@link LocalDateTime} in UTC either way.
 */
@API(status = EXPERIMENTAL)
public enum RowValues {
  /**
   * Timestamps as SQL text to the microsecond: Connector/J 8.0 drops the fraction of a {@code
   * Timestamp} or {@code LocalDateTime} parameter for MariaDB 10.x, whose handshake reports version
   * {@code 5.5.5-...}, older than fractional-second support.
   */
  UTC_TEXT,
  /** Timestamps as {@link LocalDateTime}, which pgjdbc carries to the microsecond. */
  LOCAL_DATE_TIME;

  private static final DateTimeFormatter TIMESTAMP_TEXT =
      DateTimeFormatter.ofPattern("uuuu-MM-dd HH:mm:ss.SSSSSS");

  /** Binds the row's values, in canonical column order, from parameter {@code first} on. */
  public void bind(PreparedStatement statement, int first, Row row) throws SQLException {
    List<Column> columns = row.schema().columns();
    for (int i = 0; i < columns.size(); i++) {
      bind(statement, first + i, columns.get(i), row.get(i));
    }
  }

  /** Binds one value of {@code column}'s type. */
  public void bind(PreparedStatement statement, int index, Column column, @Nullable Object value)
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
      case TIMESTAMP -> {
        LocalDateTime utc = LocalDateTime.ofInstant((Instant) value, ZoneOffset.UTC);
        if (this == UTC_TEXT) {
          statement.setString(index, TIMESTAMP_TEXT.format(utc));
        } else {
          statement.setObject(index, utc);
        }
      }
    }
  }

  /** A timestamp as SQL text in UTC to the microsecond. */
  public static String timestampText(Instant instant) {
    return TIMESTAMP_TEXT.format(LocalDateTime.ofInstant(instant, ZoneOffset.UTC));
  }

  /** Reads a row of {@code schema} from the current result row, columns in canonical order. */
  public static Row read(ResultSet result, TableSchema schema) throws SQLException {
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
      case DECIMAL -> Types.DECIMAL;
      case TIMESTAMP -> Types.TIMESTAMP;
    };
  }

  /** The schema's column names, each as {@code quote} writes it, comma-separated. */
  public static String columnList(TableSchema schema, UnaryOperator<String> quote) {
    return schema.columns().stream()
        .map(column -> quote.apply(column.name()))
        .collect(Collectors.joining(", "));
  }
}
