package io.reliabilitylab.spi.check;

import static org.apiguardian.api.API.Status.STABLE;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apiguardian.api.API;

/**
 * One concrete instance behind a verdict: a missing, unexpected or mismatched row, a duplicated or
 * lost event.
 *
 * <pre>{@code
 * EvidenceSample sample = EvidenceSample.builder("mismatched", "order_id=42")
 *     .expected(Map.of("status", "paid"))
 *     .actual(Map.of("status", "created"))
 *     .differingColumns(List.of("status"))
 *     .note("the update of event 1007 is missing")
 *     .build();
 * }</pre>
 *
 * @param kind what this sample shows, e.g. {@code missing}, {@code mismatched}, {@code duplicate}
 * @param subject what it is about, e.g. {@code order_id=42} or {@code event_id=1007}
 * @param expected the expected values, column to canonical text (empty when nothing was expected)
 * @param actual the actual values, column to canonical text (empty when nothing was found)
 * @param differingColumns the columns whose values differ, for a mismatch
 * @param note one line of explanation
 */
@API(status = STABLE)
public record EvidenceSample(
    String kind,
    String subject,
    Map<String, String> expected,
    Map<String, String> actual,
    List<String> differingColumns,
    String note) {

  public EvidenceSample {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(subject, "subject");
    expected = Collections.unmodifiableMap(new LinkedHashMap<>(expected));
    actual = Collections.unmodifiableMap(new LinkedHashMap<>(actual));
    differingColumns = List.copyOf(differingColumns);
    Objects.requireNonNull(note, "note");
  }

  /** A sample with a note only. */
  public static EvidenceSample of(String kind, String subject, String note) {
    return new EvidenceSample(kind, subject, Map.of(), Map.of(), List.of(), note);
  }

  /** A builder for a sample of {@code kind} about {@code subject}; everything else starts empty. */
  public static Builder builder(String kind, String subject) {
    return new Builder(kind, subject);
  }

  /** Collects an {@link EvidenceSample}. */
  public static final class Builder {
    private final String kind;
    private final String subject;
    private Map<String, String> expected = Map.of();
    private Map<String, String> actual = Map.of();
    private List<String> differingColumns = List.of();
    private String note = "";

    private Builder(String kind, String subject) {
      this.kind = Objects.requireNonNull(kind, "kind");
      this.subject = Objects.requireNonNull(subject, "subject");
    }

    /** The expected values, column to canonical text. */
    public Builder expected(Map<String, String> values) {
      this.expected = Objects.requireNonNull(values, "expected");
      return this;
    }

    /** The actual values, column to canonical text. */
    public Builder actual(Map<String, String> values) {
      this.actual = Objects.requireNonNull(values, "actual");
      return this;
    }

    /** The columns whose values differ, for a mismatch. */
    public Builder differingColumns(List<String> columns) {
      this.differingColumns = Objects.requireNonNull(columns, "differingColumns");
      return this;
    }

    /** One line of explanation. */
    public Builder note(String line) {
      this.note = Objects.requireNonNull(line, "note");
      return this;
    }

    public EvidenceSample build() {
      return new EvidenceSample(kind, subject, expected, actual, differingColumns, note);
    }
  }
}
