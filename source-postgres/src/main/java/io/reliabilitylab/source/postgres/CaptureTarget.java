package io.reliabilitylab.source.postgres;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.Objects;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * What a capture reads: a table, and the publication that carries its changes to {@code pgoutput}
 * when the capture uses one the lab does not create itself.
 */
@API(status = EXPERIMENTAL)
public record CaptureTarget(String schema, String table, @Nullable String publication) {

  public CaptureTarget {
    Objects.requireNonNull(schema, "schema");
    Objects.requireNonNull(table, "table");
  }

  /** The table, without a publication to check. */
  public static CaptureTarget table(String schema, String table) {
    return new CaptureTarget(schema, table, null);
  }

  /** The same table, carried by {@code name}. */
  public CaptureTarget withPublication(String name) {
    return new CaptureTarget(schema, table, Objects.requireNonNull(name, "name"));
  }

  /** {@code schema.table}, each part quoted where SQL needs it. */
  public String qualifiedName() {
    return Identifiers.quote(schema) + "." + Identifiers.quote(table);
  }
}
