package io.reliabilitylab.source.mysql;

import io.reliabilitylab.source.jdbc.RowValues;
import io.reliabilitylab.spi.data.Column;
import io.reliabilitylab.spi.data.Row;
import io.reliabilitylab.spi.data.TableSchema;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * Row values as MySQL and MariaDB take them ({@link RowValues#UTC_TEXT}): timestamps travel as UTC
 * wall-clock text; with the session zone {@code +00:00} the server stores and returns them
 * unchanged, whatever the JVM's default zone.
 */
final class SourceRows {

  private SourceRows() {}

  static void bind(PreparedStatement statement, int first, Row row) throws SQLException {
    RowValues.UTC_TEXT.bind(statement, first, row);
  }

  static void bind(PreparedStatement statement, int index, Column column, @Nullable Object value)
      throws SQLException {
    RowValues.UTC_TEXT.bind(statement, index, column, value);
  }

  static String timestampText(Instant instant) {
    return RowValues.timestampText(instant);
  }

  static Row read(ResultSet result, TableSchema schema) throws SQLException {
    return RowValues.read(result, schema);
  }

  /** The schema's column names, quoted and comma-separated. */
  static String columnList(TableSchema schema) {
    return RowValues.columnList(schema, SourceJdbc::quoteIdentifier);
  }
}
