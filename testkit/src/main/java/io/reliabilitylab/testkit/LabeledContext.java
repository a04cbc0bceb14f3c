package io.reliabilitylab.testkit;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.reliabilitylab.spi.check.CheckContext;
import java.nio.file.Path;
import java.util.Objects;
import org.apiguardian.api.API;

/**
 * A check context with a label that says what it holds, so that a failed contract assertion names
 * the data it failed on: {@code LabeledContext.of("a lost delete (exactly-once)", context)}.
 *
 * @param label one line describing the data, used in assertion messages
 * @param context the context handed to the check
 */
@API(status = EXPERIMENTAL)
public record LabeledContext(String label, CheckContext context) {

  public LabeledContext {
    Objects.requireNonNull(label, "label");
    Objects.requireNonNull(context, "context");
    if (label.isBlank()) {
      throw new IllegalArgumentException("A context needs a label that says what it holds");
    }
  }

  public static LabeledContext of(String label, CheckContext context) {
    return new LabeledContext(label, context);
  }

  /** The same data with another spill directory. */
  public LabeledContext withWorkDirectory(Path directory) {
    return new LabeledContext(label, context.toBuilder().workDirectory(directory).build());
  }

  /** The same data with another in-memory row budget, to force a check to spill. */
  public LabeledContext withMaxRowsInMemory(int rows) {
    return new LabeledContext(
        label + " [max " + rows + " rows in memory]",
        context.toBuilder().maxRowsInMemory(rows).build());
  }

  @Override
  public String toString() {
    return label;
  }
}
