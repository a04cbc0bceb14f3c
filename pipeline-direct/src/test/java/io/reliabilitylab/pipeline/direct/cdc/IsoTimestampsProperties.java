package io.reliabilitylab.pipeline.direct.cdc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

class IsoTimestampsProperties {

  /** What the hand-written path must agree with on every text. */
  private static long reference(String text) {
    Instant instant = OffsetDateTime.parse(text).toInstant();
    // Whole microseconds, rounded down: Instant's nanos count forward from its second.
    return instant.getEpochSecond() * 1_000_000L + instant.getNano() / 1_000;
  }

  @Property(tries = 2_000)
  void debeziumsUtcTextsReadAsJavaTimeReadsThem(
      @ForAll("instants") Instant instant,
      @ForAll @IntRange(max = 9) int fractionDigits,
      @ForAll boolean zulu) {
    String pattern =
        "uuuu-MM-dd'T'HH:mm:ss" + (fractionDigits == 0 ? "" : "." + "S".repeat(fractionDigits));
    String text =
        DateTimeFormatter.ofPattern(pattern).withZone(ZoneOffset.UTC).format(instant)
            + (zulu ? "Z" : "+00:00");

    assertThat(IsoTimestamps.epochMicros(text)).as(text).isEqualTo(reference(text));
  }

  @Property(tries = 500)
  void otherOffsetsAndFormsReadAsJavaTimeReadsThem(
      @ForAll("instants") Instant instant, @ForAll @IntRange(min = -18, max = 18) int hours) {
    String text = OffsetDateTime.ofInstant(instant, ZoneOffset.ofHours(hours)).toString();

    assertThat(IsoTimestamps.epochMicros(text)).as(text).isEqualTo(reference(text));
  }

  @Test
  void textsThatAreNoTimestampFailAsJavaTimeFails() {
    for (String bad :
        new String[] {
          "2026-02-30T00:00:00Z",
          "2026-01-01T24:00:00Z",
          "2026-01-01T00:00:60Z",
          "2026-01-01T00:00:00",
          "2026-01-01 00:00:00Z",
          "2026-01-01T00:00:00.123x",
          "２０２６-01-01T00:00:00Z",
          "not a timestamp at all"
        }) {
      assertThatThrownBy(() -> IsoTimestamps.epochMicros(bad))
          .as(bad)
          .isInstanceOf(DateTimeParseException.class);
    }
  }

  @Test
  void anEmptyFractionIsReadAsJavaTimeReadsIt() {
    assertThat(IsoTimestamps.epochMicros("2026-01-01T00:00:00.Z"))
        .isEqualTo(reference("2026-01-01T00:00:00Z"));
  }

  @Provide
  Arbitrary<Instant> instants() {
    // Years 0001 to 9999, to the nanosecond: every text Debezium writes for a MySQL TIMESTAMP.
    return Arbitraries.longs()
        .between(
            Instant.parse("0001-01-01T00:00:00Z").getEpochSecond(),
            Instant.parse("9999-12-31T23:59:59Z").getEpochSecond())
        .flatMap(
            seconds ->
                Arbitraries.integers()
                    .between(0, 999_999_999)
                    .map(nanos -> Instant.ofEpochSecond(seconds, nanos)));
  }
}
