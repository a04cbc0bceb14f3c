package io.reliabilitylab.source.mysql;

import io.reliabilitylab.spi.data.BucketDigest;
import io.reliabilitylab.spi.data.CanonicalForm;
import io.reliabilitylab.spi.data.CloseableIterator;
import io.reliabilitylab.spi.data.Column;
import io.reliabilitylab.spi.data.ColumnType;
import io.reliabilitylab.spi.data.KeyRange;
import io.reliabilitylab.spi.data.KeyRangeDigests;
import io.reliabilitylab.spi.data.Row;
import io.reliabilitylab.spi.data.TableSchema;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * {@link KeyRangeDigests} computed by MariaDB: each row's {@linkplain CanonicalForm#line canonical
 * line} is built in SQL and hashed with {@code CRC32()} and {@code CRC32C()}, summed per bucket in
 * a {@code GROUP BY} over a primary-key range scan, so only the bucket digests cross the wire. All
 * statements run in one consistent-snapshot transaction, so every call sees the same table.
 *
 * <p>Offered for a table whose key is one integral column and whose columns have a canonical form
 * SQL can build ({@code DOUBLE}'s shortest-repr text cannot be), on a server with {@code CRC32C()}
 * (MariaDB 10.8 and later; MySQL has none).
 */
final class SourceDigests implements KeyRangeDigests {

  private final Connection connection;
  private final TableSchema schema;
  private final String table;
  private final String key;
  private final String description;
  private final boolean keysUnique;

  private SourceDigests(
      Connection connection,
      TableSchema schema,
      String table,
      String description,
      boolean keysUnique) {
    this.connection = connection;
    this.schema = schema;
    this.table = SourceJdbc.quoteIdentifier(table);
    this.key = SourceJdbc.quoteIdentifier(schema.columns().get(schema.keyIndexes()[0]).name());
    this.description = description;
    this.keysUnique = keysUnique;
  }

  /** Why the source cannot digest this table in SQL, or empty when it can. */
  static Optional<String> unsupported(TableSchema schema) {
    if (schema.keyIndexes().length != 1) {
      return Optional.of("its key has " + schema.keyIndexes().length + " columns");
    }
    ColumnType keyType = schema.columns().get(schema.keyIndexes()[0]).type();
    if (keyType != ColumnType.BIGINT && keyType != ColumnType.INT) {
      return Optional.of("its key is " + keyType + ", not an integer");
    }
    for (Column column : schema.columns()) {
      if (column.type() == ColumnType.DOUBLE) {
        return Optional.of("column " + column.name() + " is a DOUBLE");
      }
    }
    return Optional.empty();
  }

  /**
   * Opens digests of the table on a connection of its own, or empty when the schema or the server
   * cannot (no {@code CRC32C()}).
   */
  static Optional<KeyRangeDigests> open(
      SourceDatabase source, TableSchema schema, String table, String description) {
    if (unsupported(schema).isPresent()) {
      return Optional.empty();
    }
    Connection connection = null;
    try {
      connection = source.connect();
      try (Statement probe = connection.createStatement()) {
        probe.executeQuery("SELECT CRC32C('')").close();
      } catch (SQLException noCrc32c) {
        connection.close();
        return Optional.empty();
      }
      boolean unique = uniqueKey(connection, table, schema);
      connection.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
      connection.setAutoCommit(false);
      try (Statement begin = connection.createStatement()) {
        // Timestamps in UTC, as the row reader reads them.
        begin.execute("SET time_zone = '+00:00'");
        begin.execute("START TRANSACTION WITH CONSISTENT SNAPSHOT");
      }
      return Optional.of(new SourceDigests(connection, schema, table, description, unique));
    } catch (SQLException e) {
      SourceJdbc.closeQuietly(connection);
      throw new IllegalStateException("Cannot digest " + description + ": " + e.getMessage(), e);
    }
  }

  private static boolean uniqueKey(Connection connection, String table, TableSchema schema)
      throws SQLException {
    String column = schema.columns().get(schema.keyIndexes()[0]).name();
    try (PreparedStatement statement =
        connection.prepareStatement(
            "SELECT INDEX_NAME FROM information_schema.STATISTICS"
                + " WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = ? AND NON_UNIQUE = 0"
                + " GROUP BY INDEX_NAME HAVING COUNT(*) = 1 AND MAX(COLUMN_NAME) = ?")) {
      statement.setString(1, table);
      statement.setString(2, column);
      try (ResultSet result = statement.executeQuery()) {
        return result.next();
      }
    }
  }

  @Override
  public Optional<KeyRange> bounds() {
    String sql = "SELECT MIN(" + key + "), MAX(" + key + ") FROM " + table;
    try (Statement statement = connection.createStatement();
        ResultSet result = statement.executeQuery(sql)) {
      result.next();
      long first = result.getLong(1);
      if (result.wasNull()) {
        return Optional.empty();
      }
      return Optional.of(new KeyRange(first, result.getLong(2)));
    } catch (SQLException e) {
      throw failure(e);
    }
  }

  @Override
  public List<BucketDigest> digests(KeyRange range, long width) {
    if (width < 1) {
      throw new IllegalArgumentException("A bucket is at least one key wide, not " + width);
    }
    String line = canonicalLine(schema);
    String sql =
        "SELECT (k - ?) DIV ? AS b, COUNT(*), SUM((CRC32(l) << 32) | CRC32C(l))"
            + " FROM (SELECT "
            + key
            + " AS k, "
            + line
            + " AS l FROM "
            + table
            + " WHERE "
            + key
            + " BETWEEN ? AND ?) AS canonical GROUP BY b ORDER BY b";
    List<BucketDigest> digests = new ArrayList<>();
    try (PreparedStatement statement = connection.prepareStatement(sql)) {
      statement.setLong(1, range.first());
      statement.setLong(2, width);
      statement.setLong(3, range.first());
      statement.setLong(4, range.last());
      try (ResultSet result = statement.executeQuery()) {
        while (result.next()) {
          // The sum is exact in SQL (DECIMAL); its low 64 bits are the sum modulo 2^64.
          BigDecimal sum = result.getBigDecimal(3);
          digests.add(
              new BucketDigest(
                  range.bucket(width, result.getLong(1)),
                  result.getLong(2),
                  sum.toBigInteger().longValue()));
        }
      }
    } catch (SQLException e) {
      throw failure(e);
    }
    return digests;
  }

  @Override
  public CloseableIterator<Row> rows(List<KeyRange> ranges) {
    if (ranges.isEmpty()) {
      return CloseableIterator.of(List.of());
    }
    StringBuilder where = new StringBuilder();
    for (KeyRange range : ranges) {
      where.append(where.length() == 0 ? "" : " OR ");
      where.append(key).append(" BETWEEN ? AND ?");
    }
    String sql = "SELECT " + SourceRows.columnList(schema) + " FROM " + table + " WHERE " + where;
    List<Row> rows = new ArrayList<>();
    try (PreparedStatement statement = connection.prepareStatement(sql)) {
      int index = 1;
      for (KeyRange range : ranges) {
        statement.setLong(index++, range.first());
        statement.setLong(index++, range.last());
      }
      // A differing bucket's rows: few enough to buffer, and buffering frees the connection for
      // the next statement of this transaction.
      try (ResultSet result = statement.executeQuery()) {
        while (result.next()) {
          rows.add(SourceRows.read(result, schema));
        }
      }
    } catch (SQLException e) {
      throw failure(e);
    }
    return CloseableIterator.of(rows);
  }

  @Override
  public boolean keysUnique() {
    return keysUnique;
  }

  @Override
  public void close() {
    try {
      connection.commit();
    } catch (SQLException e) {
      // A read-only snapshot: nothing to lose when its end fails.
    }
    SourceJdbc.closeQuietly(connection);
  }

  /**
   * The SQL expression of a row's canonical line: the rules of {@link CanonicalForm}, byte for
   * byte. Control characters are written as hex literals, so that the server's SQL mode (e.g.
   * {@code NO_BACKSLASH_ESCAPES}) cannot change them.
   */
  static String canonicalLine(TableSchema schema) {
    StringBuilder line = new StringBuilder("CONCAT(CONCAT_WS(_utf8mb4 X'09'");
    for (Column column : schema.columns()) {
      line.append(", COALESCE(").append(canonicalValue(column)).append(", _utf8mb4 X'5C4E')");
    }
    return line.append("), _utf8mb4 X'0A')").toString();
  }

  private static String canonicalValue(Column column) {
    String name = SourceJdbc.quoteIdentifier(column.name());
    return switch (column.type()) {
      case BIGINT, INT -> "CAST(" + name + " AS CHAR)";
      // IF(NULL, ...) would answer 'false': a null must stay null for COALESCE to mark it.
      case BOOLEAN ->
          "CASE WHEN " + name + " IS NULL THEN NULL WHEN " + name + " THEN 'true' ELSE 'false' END";
      case DECIMAL -> {
        String text = "CAST(" + name + " AS CHAR)";
        yield "IF(LOCATE('.', "
            + text
            + ") > 0, TRIM(TRAILING '.' FROM TRIM(TRAILING '0' FROM "
            + text
            + ")), "
            + text
            + ")";
      }
      case TIMESTAMP -> "DATE_FORMAT(" + name + ", '%Y-%m-%dT%H:%i:%s.%fZ')";
      case VARCHAR ->
          "REPLACE(REPLACE(REPLACE(CONVERT("
              + name
              + " USING utf8mb4), _utf8mb4 X'5C', _utf8mb4 X'5C5C'),"
              + " _utf8mb4 X'09', _utf8mb4 X'5C74'), _utf8mb4 X'0A', _utf8mb4 X'5C6E')";
      case DOUBLE -> throw new IllegalArgumentException("DOUBLE has no canonical form in SQL");
    };
  }

  private IllegalStateException failure(SQLException e) {
    return new IllegalStateException("Cannot digest " + description + ": " + e.getMessage(), e);
  }

  @Override
  public String toString() {
    return "SourceDigests[" + description + "]";
  }
}
