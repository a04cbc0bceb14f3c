package io.reliabilitylab.source.mysql;

import static org.assertj.core.api.Assertions.assertThat;

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
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * MariaDB's digests against the lab's canonical form: the line SQL builds is the line Java builds,
 * byte for byte, for every column type the lab reads in SQL — nulls, text with tabs, newlines,
 * backslashes, a literal {@code \N} and characters outside the BMP, decimals with and without
 * trailing zeros, negative values, timestamps to the microsecond — so digests of the same rows
 * computed in the database and in Java agree.
 */
class SourceDigestsIT {

  private static final TableSchema SCHEMA =
      new TableSchema(
          "digest_rows",
          List.of(
              new Column("id", ColumnType.BIGINT),
              new Column("small", ColumnType.INT),
              new Column("label", ColumnType.VARCHAR),
              new Column("flag", ColumnType.BOOLEAN),
              new Column("amount", ColumnType.DECIMAL),
              new Column("at", ColumnType.TIMESTAMP)),
          List.of("id"),
          null);

  private static final String[] TEXTS = {
    "plain", "", "tab\there", "line\nbreak", "back\\slash", "\\N", "ünïcødé", "emoji 🦀", "a\\tb"
  };

  private static final EmbeddedMariaDb source = EmbeddedMariaDb.shared();

  /** One table for every test: they only read it. */
  @BeforeAll
  static void createTable() throws SQLException {
    source.resetDatabase();
    try (Connection connection = source.connect();
        Statement statement = connection.createStatement()) {
      statement.execute(
          "CREATE TABLE digest_rows (id BIGINT PRIMARY KEY, small INT NULL,"
              + " label VARCHAR(64) NULL, flag BOOLEAN NULL, amount DECIMAL(14,4) NULL,"
              + " at TIMESTAMP(6) NULL) CHARSET=utf8mb4 COLLATE=utf8mb4_bin");
      statement.execute(
          "CREATE TABLE repeated_keys (id BIGINT NOT NULL, small INT NULL, KEY (id))");
    }
    Random random = new Random(42);
    try (Connection connection = source.connect();
        PreparedStatement insert =
            connection.prepareStatement("INSERT INTO digest_rows VALUES (?, ?, ?, ?, ?, ?)")) {
      for (int i = 0; i < 3_000; i++) {
        long id = random.nextInt(4) == 0 ? -(i * 7L + 3) : i * 7L;
        List<Object> values =
            Arrays.asList(
                id,
                random.nextInt(5) == 0 ? null : random.nextInt(),
                random.nextInt(5) == 0 ? null : TEXTS[random.nextInt(TEXTS.length)] + i,
                random.nextInt(5) == 0 ? null : random.nextBoolean(),
                random.nextInt(5) == 0
                    ? null
                    : BigDecimal.valueOf(random.nextInt(2_000_000) - 1_000_000, random.nextInt(5)),
                random.nextInt(5) == 0
                    ? null
                    : Instant.ofEpochSecond(
                        1_700_000_000L + random.nextInt(100_000_000),
                        random.nextInt(1_000_000) * 1000L));
        Row row = new Row(SCHEMA, values);
        SourceRows.bind(insert, 1, row);
        insert.addBatch();
        if (i % 500 == 499) {
          insert.executeBatch();
        }
      }
      insert.executeBatch();
    } catch (SQLException duplicate) {
      throw new AssertionError(duplicate);
    }
  }

  @Test
  void theLineSqlBuildsIsTheLineJavaBuilds() throws SQLException {
    List<Row> rows = read();
    Map<Long, String> javaLines = new TreeMap<>();
    rows.forEach(row -> javaLines.put((Long) row.get("id"), CanonicalForm.line(row)));
    Map<Long, String> sqlLines = new TreeMap<>();
    try (Connection connection = source.connect();
        Statement statement = connection.createStatement()) {
      statement.execute("SET time_zone = '+00:00'");
      try (ResultSet result =
          statement.executeQuery(
              "SELECT id, " + SourceDigests.canonicalLine(SCHEMA) + " FROM digest_rows")) {
        while (result.next()) {
          sqlLines.put(result.getLong(1), result.getString(2));
        }
      }
    }
    assertThat(sqlLines).hasSize(rows.size()).isEqualTo(javaLines);
  }

  @Test
  void digestsEqualTheDigestsJavaComputesFromTheRows() {
    List<Row> rows = read();
    try (KeyRangeDigests digests =
        SourceRowReader.table(source, SCHEMA, "digest_rows").keyRangeDigests().orElseThrow()) {
      KeyRange bounds = digests.bounds().orElseThrow();
      assertThat(bounds.first())
          .isEqualTo(rows.stream().mapToLong(r -> (Long) r.get("id")).min().orElseThrow());
      for (long width : new long[] {1, 100, 4_096, Long.MAX_VALUE / 4}) {
        assertThat(digests.digests(bounds, width))
            .as("width %d", width)
            .containsExactlyElementsOf(javaDigests(rows, bounds, width));
      }
      KeyRange part = new KeyRange(-5_000, 5_000);
      assertThat(digests.digests(part, 64)).containsExactlyElementsOf(javaDigests(rows, part, 64));
      List<Row> someRows = new ArrayList<>();
      try (CloseableIterator<Row> read =
          digests.rows(List.of(new KeyRange(0, 70), new KeyRange(700, 700)))) {
        read.forEachRemaining(someRows::add);
      }
      assertThat(someRows)
          .containsExactlyInAnyOrderElementsOf(
              rows.stream()
                  .filter(
                      r -> {
                        long id = (Long) r.get("id");
                        return (id >= 0 && id <= 70) || id == 700;
                      })
                  .toList());
      assertThat(digests.keysUnique()).as("a primary key").isTrue();
    }
  }

  @Test
  void aKeyWithoutAUniqueIndexIsNotUniqueAndADoubleColumnOffersNoDigests() {
    TableSchema repeated =
        new TableSchema(
            "repeated_keys",
            List.of(new Column("id", ColumnType.BIGINT), new Column("small", ColumnType.INT)),
            List.of("id"),
            null);
    try (KeyRangeDigests digests =
        SourceRowReader.table(source, repeated, "repeated_keys").keyRangeDigests().orElseThrow()) {
      assertThat(digests.keysUnique()).isFalse();
      assertThat(digests.bounds()).isEmpty();
    }
    TableSchema withDouble =
        new TableSchema(
            "doubles",
            List.of(new Column("id", ColumnType.BIGINT), new Column("x", ColumnType.DOUBLE)),
            List.of("id"),
            null);
    assertThat(SourceRowReader.table(source, withDouble, "doubles").keyRangeDigests()).isEmpty();
  }

  private static List<Row> read() {
    List<Row> rows = new ArrayList<>();
    try (CloseableIterator<Row> read =
        SourceRowReader.table(source, SCHEMA, "digest_rows").open()) {
      read.forEachRemaining(rows::add);
    }
    return rows;
  }

  private static List<BucketDigest> javaDigests(List<Row> rows, KeyRange range, long width) {
    Map<Long, long[]> buckets = new TreeMap<>();
    for (Row row : rows) {
      long id = (Long) row.get("id");
      if (range.contains(id)) {
        long[] cell = buckets.computeIfAbsent(range.bucketOf(id, width), b -> new long[2]);
        cell[0]++;
        cell[1] += CanonicalForm.rowHash(row);
      }
    }
    List<BucketDigest> digests = new ArrayList<>();
    buckets.forEach(
        (bucket, cell) ->
            digests.add(new BucketDigest(range.bucket(width, bucket), cell[0], cell[1])));
    return digests;
  }
}
