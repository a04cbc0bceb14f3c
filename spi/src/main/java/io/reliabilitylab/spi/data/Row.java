package io.reliabilitylab.spi.data;

import static org.apiguardian.api.API.Status.STABLE;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * One row of a table, its values in the schema's canonical column order. Timestamps are truncated
 * to microseconds on construction, so that rows read from MySQL (milliseconds or microseconds) and
 * from Iceberg (microseconds) compare equal when they hold the same instant.
 */
@API(status = STABLE)
public record Row(TableSchema schema, List<@Nullable Object> values) {

  public Row {
    Objects.requireNonNull(schema, "schema");
    if (values.size() != schema.columns().size()) {
      throw new IllegalArgumentException(
          "Table "
              + schema.name()
              + " has "
              + schema.columns().size()
              + " columns but the row has "
              + values.size()
              + " values");
    }
    List<@Nullable Object> normalized = new ArrayList<>(values.size());
    for (int i = 0; i < values.size(); i++) {
      normalized.add(normalize(schema.columns().get(i), values.get(i)));
    }
    values = Collections.unmodifiableList(normalized);
    for (int keyIndex : schema.keyIndexes()) {
      if (values.get(keyIndex) == null) {
        throw new IllegalArgumentException(
            "Key column "
                + schema.columns().get(keyIndex).name()
                + " of table "
                + schema.name()
                + " is null");
      }
    }
  }

  private static @Nullable Object normalize(Column column, @Nullable Object value) {
    if (value == null) {
      return null;
    }
    Object converted = value;
    switch (column.type()) {
      case BIGINT -> {
        if (value instanceof Integer || value instanceof Short || value instanceof Byte) {
          converted = ((Number) value).longValue();
        }
      }
      case INT -> {
        if (value instanceof Short || value instanceof Byte) {
          converted = ((Number) value).intValue();
        }
      }
      case TIMESTAMP -> {
        if (value instanceof Instant instant) {
          converted = instant.truncatedTo(ChronoUnit.MICROS);
        }
      }
      case DECIMAL -> {
        if (value instanceof BigDecimal decimal) {
          converted = decimal.stripTrailingZeros();
        }
      }
      default -> {}
    }
    if (!column.type().javaType().isInstance(converted)) {
      throw new IllegalArgumentException(
          "Column "
              + column.name()
              + " is "
              + column.type()
              + " and needs a "
              + column.type().javaType().getSimpleName()
              + ", got "
              + value.getClass().getName());
    }
    return converted;
  }

  /** The value of a column, by name. */
  public @Nullable Object get(String column) {
    return values.get(schema.indexOf(column));
  }

  /** The value of a column, by canonical position. */
  public @Nullable Object get(int index) {
    return values.get(index);
  }

  /** The primary key of this row. */
  public RowKey key() {
    int[] indexes = schema.keyIndexes();
    Object[] key = new Object[indexes.length];
    for (int i = 0; i < indexes.length; i++) {
      key[i] = Objects.requireNonNull(values.get(indexes[i]));
    }
    return RowKey.of(key);
  }

  /** The event id of this row, when the schema has an event id column and it is set. */
  public @Nullable Long eventId() {
    String column = schema.eventIdColumn();
    return column == null ? null : (Long) get(column);
  }

  /** A copy with one column changed. */
  public Row with(String column, @Nullable Object value) {
    List<@Nullable Object> copy = new ArrayList<>(values);
    copy.set(schema.indexOf(column), value);
    return new Row(schema, copy);
  }

  /** The same values under another schema name (the source row seen as the Iceberg row). */
  public Row inTable(TableSchema other) {
    if (!other.columns().equals(schema.columns())) {
      throw new IllegalArgumentException(
          "Tables " + schema.name() + " and " + other.name() + " have different columns");
    }
    return new Row(other, values);
  }

  /** Column name to canonical text, in column order: for evidence samples. */
  public Map<String, String> toCanonicalMap() {
    Map<String, String> map = new LinkedHashMap<>();
    for (int i = 0; i < values.size(); i++) {
      map.put(schema.columns().get(i).name(), CanonicalForm.value(values.get(i)));
    }
    return map;
  }

  /** Columns whose values differ from another row of the same shape, in column order. */
  public List<String> differingColumns(Row other) {
    List<String> differing = new ArrayList<>();
    for (int i = 0; i < values.size(); i++) {
      if (!Objects.equals(values.get(i), other.values.get(i))) {
        differing.add(schema.columns().get(i).name());
      }
    }
    return differing;
  }

  /** Rows are equal when their values are; the schema name does not matter, its columns do. */
  @Override
  public boolean equals(@Nullable Object o) {
    return o instanceof Row other
        && schema.columns().equals(other.schema.columns())
        && values.equals(other.values);
  }

  @Override
  public int hashCode() {
    return values.hashCode();
  }

  @Override
  public String toString() {
    return CanonicalForm.line(this);
  }
}
