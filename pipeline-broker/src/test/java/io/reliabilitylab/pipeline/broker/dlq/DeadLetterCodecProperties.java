package io.reliabilitylab.pipeline.broker.dlq;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

class DeadLetterCodecProperties {

  @Provide
  Arbitrary<DeadLetter> deadLetters() {
    Arbitrary<byte[]> bytes = Arbitraries.bytes().array(byte[].class).ofMaxSize(64).injectNull(0.2);
    Arbitrary<String> text =
        Arbitraries.strings().withCharRange('\u0000', '\uD7FF').ofMaxLength(24);
    Arbitrary<Instant> instants =
        Arbitraries.longs()
            .between(-62_135_596_800_000_000L, 253_402_300_799_999_999L)
            .map(micros -> Instant.EPOCH.plus(micros, ChronoUnit.MICROS))
            .injectNull(0.1);
    return Combinators.combine(
            instants,
            text,
            Arbitraries.integers().greaterOrEqual(0),
            Arbitraries.longs(),
            Arbitraries.longs(),
            bytes,
            bytes,
            Combinators.combine(text.injectNull(0.1), text.injectNull(0.1))
                .as((type, message) -> new String[] {type, message}))
        .as(
            (at, topic, partition, offset, timestamp, key, value, error) ->
                new DeadLetter(
                    DeadLetter.SCHEMA_VERSION,
                    at,
                    topic,
                    partition,
                    offset,
                    timestamp,
                    key,
                    value,
                    error[0],
                    error[1]));
  }

  @Property
  void aDeadLetterSurvivesItsJson(@ForAll("deadLetters") DeadLetter deadLetter)
      throws InvalidDeadLetterException {
    assertThat(DeadLetterCodec.decode(DeadLetterCodec.encode(deadLetter))).isEqualTo(deadLetter);
  }
}
