package io.reliabilitylab.spi.check;

import static org.apiguardian.api.API.Status.STABLE;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apiguardian.api.API;

/**
 * One concrete instance behind a verdict: a missing, unexpected or mismatched row, a duplicated or
 * lost event.
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
    expected = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(expected));
    actual = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(actual));
    differingColumns = List.copyOf(differingColumns);
    Objects.requireNonNull(note, "note");
  }

  /** A sample with a note only. */
  public static EvidenceSample of(String kind, String subject, String note) {
    return new EvidenceSample(kind, subject, Map.of(), Map.of(), List.of(), note);
  }
}
