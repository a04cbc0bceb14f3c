package io.reliabilitylab.spi.data;

import static org.apiguardian.api.API.Status.STABLE;

import java.util.Objects;
import org.apiguardian.api.API;

/** A named, typed column of a {@link TableSchema}. */
@API(status = STABLE)
public record Column(String name, ColumnType type) {
  public Column {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(type, "type");
    if (name.isBlank()) {
      throw new IllegalArgumentException("A column needs a name");
    }
  }
}
