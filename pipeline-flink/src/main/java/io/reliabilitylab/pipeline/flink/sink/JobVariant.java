package io.reliabilitylab.pipeline.flink.sink;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.Arrays;
import java.util.Locale;
import java.util.Objects;
import java.util.stream.Collectors;
import org.apiguardian.api.API;

/**
 * Which reference job runs: the faithful one, or a deliberately broken one the lab must catch (its
 * negative controls). Chosen with the pipeline option {@value #OPTION}.
 */
@API(status = EXPERIMENTAL)
public enum JobVariant {
  /** The reference job: both sinks commit on Flink's checkpoints. */
  FAITHFUL("faithful"),
  /**
   * BROKEN: the current table is written in append mode, not upsert, and its deletes and
   * update-befores are dropped: an update leaves the old row in place and a delete is lost
   * (duplicate keys, stale rows), with or without faults.
   */
  BROKEN_CURRENT_APPEND("broken-current-append");

  /** The pipeline option that chooses the variant. */
  public static final String OPTION = "job.variant";

  private final String text;

  JobVariant(String text) {
    this.text = text;
  }

  /** The option's text form, e.g. {@code broken-current-append}. */
  public String text() {
    return text;
  }

  /** Whether this is a negative control. */
  public boolean broken() {
    return this != FAITHFUL;
  }

  /** Reads the text form; a bad input's message lists the variants. */
  public static JobVariant parse(String text) {
    Objects.requireNonNull(text, "text");
    String wanted = text.strip().toLowerCase(Locale.ROOT);
    for (JobVariant variant : values()) {
      if (variant.text.equals(wanted)) {
        return variant;
      }
    }
    throw new IllegalArgumentException(
        "Unknown "
            + OPTION
            + " '"
            + text
            + "'; use one of "
            + Arrays.stream(values()).map(JobVariant::text).collect(Collectors.joining(", ")));
  }
}
