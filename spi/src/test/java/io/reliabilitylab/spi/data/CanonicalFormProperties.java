package io.reliabilitylab.spi.data;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.zip.CRC32;
import java.util.zip.CRC32C;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.LongRange;

/** The hand-written timestamp text and the row hash follow their definitions for any input. */
class CanonicalFormProperties {

  private static final DateTimeFormatter DEFINITION =
      DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSSSSS'Z'").withZone(ZoneOffset.UTC);

  @Property(tries = 2_000)
  void timestampsReadAsTheFormatterWritesThem(
      @ForAll
          @LongRange(min = -62_167_219_200L - 86_400L * 400, max = 253_402_300_799L + 86_400L * 400)
          long seconds,
      @ForAll @LongRange(min = 0, max = 999_999_999) long nanos) {
    Instant instant = Instant.ofEpochSecond(seconds, nanos);
    assertThat(CanonicalForm.value(instant)).isEqualTo(DEFINITION.format(instant));
  }

  @Property(tries = 500)
  void theRowHashIsCrc32HighAndCrc32cLow(@ForAll String text) {
    byte[] line = text.getBytes(StandardCharsets.UTF_8);
    CRC32 high = new CRC32();
    high.update(line);
    CRC32C low = new CRC32C();
    low.update(line);
    long hash = CanonicalForm.rowHash(line);
    assertThat(hash >>> 32).isEqualTo(high.getValue());
    assertThat(hash & 0xFFFF_FFFFL).isEqualTo(low.getValue());
  }
}
