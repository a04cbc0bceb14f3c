package io.reliabilitylab.pipeline.broker.dlq;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.reliabilitylab.spi.check.DlqRecord;
import java.time.Instant;
import java.util.Base64;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class DeadLetterCodecTest {

  static final byte[] KEY = "{\"order_id\":7}".getBytes(UTF_8);
  static final byte[] POISON = {(byte) 0xC3, 0x28, '{', '}'};

  static DeadLetter sample() {
    return DeadLetter.of(
        "lab.lab.orders",
        2,
        5L,
        1787231907421L,
        KEY,
        POISON,
        "invalid-utf8",
        "value is not valid UTF-8: a malformed 1-byte sequence at byte 0 of 4",
        Instant.parse("2026-08-20T13:18:27.441627Z"));
  }

  @Test
  void writesSnakeCaseFieldsInOrder() {
    String json = new String(DeadLetterCodec.encode(sample()), UTF_8);

    assertThat(json)
        .isEqualTo(
            "{\"dlq_schema_version\":1,\"quarantined_at\":\"2026-08-20T13:18:27.441627Z\","
                + "\"original_topic\":\"lab.lab.orders\",\"original_partition\":2,"
                + "\"original_offset\":5,\"original_timestamp_ms\":1787231907421,"
                + "\"original_key_base64\":\""
                + Base64.getEncoder().encodeToString(KEY)
                + "\",\"original_value_base64\":\"wyh7fQ==\","
                + "\"error_type\":\"invalid-utf8\","
                + "\"error_message\":\"value is not valid UTF-8: a malformed 1-byte sequence at"
                + " byte 0 of 4\"}");
  }

  @Test
  void readsBackWhatItWrote() throws InvalidDeadLetterException {
    assertThat(DeadLetterCodec.decode(DeadLetterCodec.encode(sample()))).isEqualTo(sample());

    DeadLetter bare = new DeadLetter(1, null, "t", 0, 0L, 0L, null, null, null, null);
    assertThat(DeadLetterCodec.decode(DeadLetterCodec.encode(bare))).isEqualTo(bare);
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "not json c2VjcmV0                                 | not well-formed UTF-8 JSON",
        "[]                                                | not a JSON object",
        "{\"original_topic\":\"t\"}                        | no dlq_schema_version",
        "{\"dlq_schema_version\":2,\"original_topic\":\"t\"} | dlq_schema_version 2; this reader knows version 1 (written by a newer lab?)",
        "{\"dlq_schema_version\":1}                        | no original_topic",
        "{\"dlq_schema_version\":1,\"original_topic\":\"t\",\"original_partition\":-1} | original_partition must be an integer in [0, 2147483647]",
        "{\"dlq_schema_version\":1,\"original_topic\":\"t\",\"original_partition\":0,\"original_offset\":0,\"original_timestamp_ms\":0,\"original_value_base64\":\"c2VjcmV0!\"} | original_value_base64 is not standard base64 (9 characters)",
        "{\"dlq_schema_version\":1,\"original_topic\":\"t\",\"quarantined_at\":\"c2VjcmV0\"} | quarantined_at is not an ISO-8601 instant",
        "{\"dlq_schema_version\":1,\"original_topic\":7}   | original_topic must be a string or null, but it is a NUMBER",
      })
  void refusesWhatIsNotADeadLetterWithoutQuotingIt(String json, String message) {
    InvalidDeadLetterException e =
        catchThrowableOfType(
            InvalidDeadLetterException.class, () -> DeadLetterCodec.decode(json.getBytes(UTF_8)));

    assertThat(e).hasMessageContaining(message);
    assertThat(e.getMessage()).doesNotContain("c2VjcmV0");
  }

  @Test
  void theSpiRecordDescribesTheOriginalValueByDigestOnly() {
    DlqRecord record = DeadLetterCodec.toSpi(sample(), "lab.lab.orders.dlq", 0, 17L);

    assertThat(record.topic()).isEqualTo("lab.lab.orders.dlq");
    assertThat(record.partition()).isZero();
    assertThat(record.offset()).isEqualTo(17L);
    assertThat(record.originalTopic()).isEqualTo("lab.lab.orders");
    assertThat(record.originalPartition()).isEqualTo(2);
    assertThat(record.originalOffset()).isEqualTo(5L);
    assertThat(record.originalTimestampMs()).isEqualTo(1787231907421L);
    assertThat(record.errorType()).isEqualTo("invalid-utf8");
    assertThat(record.errorMessage()).startsWith("value is not valid UTF-8");
    assertThat(record.quarantinedAt()).isEqualTo(Instant.parse("2026-08-20T13:18:27.441627Z"));
    assertThat(record.dlqSchemaVersion()).isEqualTo(1);
    assertThat(record.originalValueSha256()).isEqualTo(Payloads.sha256Hex(POISON)).hasSize(64);
    assertThat(record.originalValueLength()).isEqualTo(4);
    assertThat(record.originalBytesPreserved()).isTrue();
  }

  @Test
  void preservedMeansTheDigestTheFaultRecordedWhenOneIsGiven() {
    String injected = Payloads.sha256Hex(POISON);

    assertThat(DeadLetterCodec.toSpi(sample(), "d", 0, 0L, injected).originalBytesPreserved())
        .isTrue();
    assertThat(
            DeadLetterCodec.toSpi(sample(), "d", 0, 0L, injected.toUpperCase(java.util.Locale.ROOT))
                .originalBytesPreserved())
        .isTrue();
    assertThat(
            DeadLetterCodec.toSpi(sample(), "d", 0, 0L, Payloads.sha256Hex(new byte[] {1}))
                .originalBytesPreserved())
        .isFalse();

    DeadLetter noValue = new DeadLetter(1, null, "t", 0, 0L, 0L, KEY, null, "x", "y");
    DlqRecord record = DeadLetterCodec.toSpi(noValue, "d", 0, 0L);
    assertThat(record.originalBytesPreserved()).isFalse();
    assertThat(record.originalValueSha256()).isEmpty();
    assertThat(record.originalValueLength()).isZero();
  }

  @Test
  void aDeadLetterIsLoggableWithoutItsPayload() {
    byte[] secret = "{\"status\":\"s3cr3t\"}".getBytes(UTF_8);
    DeadLetter letter = DeadLetter.of("t", 0, 1L, 2L, KEY, secret, "x", "y", Instant.EPOCH);

    assertThat(letter.toString())
        .doesNotContain("s3cr3t")
        .doesNotContain(Base64.getEncoder().encodeToString(secret))
        .contains(Payloads.sha256Hex(secret), secret.length + " bytes");
  }

  @Test
  void copiesItsByteArrays() {
    byte[] value = POISON.clone();
    DeadLetter letter = DeadLetter.of("t", 0, 1L, 2L, null, value, "x", "y", Instant.EPOCH);
    value[0] = 0;
    letter.originalValue()[1] = 0;

    assertThat(letter.originalValue()).isEqualTo(POISON);
    assertThat(letter.originalKey()).isNull();
  }
}
