package io.reliabilitylab.pipeline.broker.job;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import io.reliabilitylab.pipeline.broker.dlq.DeadLetter;
import io.reliabilitylab.pipeline.broker.dlq.DeadLetterCodec;
import io.reliabilitylab.pipeline.broker.wire.ChangeRecordCodec;
import io.reliabilitylab.pipeline.broker.wire.WireRecord;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;
import org.apache.flink.api.common.functions.util.ListCollector;
import org.slf4j.LoggerFactory;

class ChangeRecordDeserializerProperties {

  private static final Logger QUARANTINE_LOG =
      (Logger) LoggerFactory.getLogger(ChangeRecordDeserializer.class);
  private static Level levelBefore;

  /** Thousands of quarantined records would each log a warning. */
  @BeforeContainer
  static void quietQuarantineWarnings() {
    levelBefore = QUARANTINE_LOG.getLevel();
    QUARANTINE_LOG.setLevel(Level.ERROR);
  }

  @AfterContainer
  static void restoreQuarantineWarnings() {
    QUARANTINE_LOG.setLevel(levelBefore);
  }

  @Provide
  Arbitrary<byte[]> payloads() {
    WireRecord wire = ChangeRecordCodec.encode(DecodedRecordTest.CHANGE);
    Arbitrary<byte[]> random = Arbitraries.bytes().array(byte[].class).ofMaxSize(300);
    // mutations of a valid record reach deeper into the decoder than random bytes do
    Arbitrary<byte[]> mutated =
        Arbitraries.integers()
            .between(0, wire.value().length - 1)
            .list()
            .ofMinSize(1)
            .ofMaxSize(4)
            .flatMap(
                positions ->
                    Arbitraries.bytes()
                        .array(byte[].class)
                        .ofSize(positions.size())
                        .map(
                            replacement -> {
                              byte[] value = wire.value();
                              for (int i = 0; i < positions.size(); i++) {
                                value[positions.get(i)] = replacement[i];
                              }
                              return value;
                            }));
    return Arbitraries.oneOf(random, mutated).injectNull(0.05);
  }

  @Property(tries = 2000)
  void neverThrowsAndKeepsEveryNonTombstone(
      @ForAll("payloads") byte[] key, @ForAll("payloads") byte[] value) throws Exception {
    ChangeRecordDeserializer deserializer = new ChangeRecordDeserializer(() -> Instant.EPOCH);
    List<DecodedRecord> out = new ArrayList<>();

    deserializer.deserialize(
        ChangeRecordDeserializerTest.record(key, value), new ListCollector<>(out));

    if (value == null) {
      assertThat(out).isEmpty();
      return;
    }
    assertThat(out).hasSize(1);
    DecodedRecord decoded = out.get(0);
    if (decoded.isQuarantined()) {
      DeadLetter letter = DeadLetterCodec.decode(decoded.deadLetter());
      assertThat(letter.originalValue()).isEqualTo(value);
      assertThat(letter.originalKey()).isEqualTo(key);
      assertThat(letter.errorType()).isNotEqualTo(ChangeRecordDeserializer.UNEXPECTED_ERROR);
    }
  }
}
