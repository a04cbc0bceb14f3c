package io.reliabilitylab.pipeline.broker.wire;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.reliabilitylab.pipeline.flink.envelope.ChangeEnvelope;
import io.reliabilitylab.pipeline.flink.envelope.OrderImage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ChangeRecordCodecTest {

  /** A value as Debezium's MariaDB connector writes it through JsonConverter without schemas. */
  static String debeziumValue(String op, String before, String after) {
    return """
        {"before":%s,"after":%s,"source":{"version":"3.5.0.Final","connector":"mariadb",\
        "name":"lab","ts_ms":1767225601000,"snapshot":"false","db":"lab","sequence":null,\
        "ts_us":1767225601000000,"ts_ns":1767225601000000000,"table":"orders","server_id":1,\
        "gtid":"0-1-42","file":"mysql-bin.000003","pos":1234,"row":2,"thread":7,"query":null},\
        "transaction":null,"op":"%s","ts_ms":1767225601500,"ts_us":1767225601500000,\
        "ts_ns":1767225601500000000}"""
        .formatted(before, after, op);
  }

  static String row(long orderId, long eventId, String status) {
    return """
        {"order_id":%d,"business_key":"order-%d","customer_id":3,"amount_cents":112010,\
        "status":"%s","event_id":%d,"seed":304,"updated_at":1767225601123}"""
        .formatted(orderId, orderId, status, eventId);
  }

  static byte[] key(long orderId) {
    return ("{\"order_id\":" + orderId + "}").getBytes(UTF_8);
  }

  static ChangeEnvelope decodeChange(byte[] key, String value) throws Exception {
    ChangeRecord record = ChangeRecordCodec.decode(key, value.getBytes(UTF_8));
    assertThat(record).isInstanceOf(ChangeRecord.Change.class);
    return ((ChangeRecord.Change) record).envelope();
  }

  static InvalidChangeRecordException refusal(byte[] key, byte[] value) {
    return catchThrowableOfType(
        InvalidChangeRecordException.class, () -> ChangeRecordCodec.decode(key, value));
  }

  static InvalidChangeRecordException refusal(byte[] key, String value) {
    return refusal(key, value.getBytes(UTF_8));
  }

  @Test
  void decodesAnUpdateWithItsSourcePosition() throws Exception {
    ChangeEnvelope envelope =
        decodeChange(key(7), debeziumValue("u", row(7, 10, "created"), row(7, 11, "paid")));

    assertThat(envelope.op()).isEqualTo("u");
    assertThat(envelope.binlogFile()).isEqualTo("mysql-bin.000003");
    assertThat(envelope.binlogPos()).isEqualTo(1234L);
    assertThat(envelope.rowIndex()).isEqualTo(2);
    assertThat(envelope.gtid()).isEqualTo("0-1-42");
    assertThat(envelope.sourceTsMillis()).isEqualTo(1767225601000L);
    assertThat(envelope.before())
        .isEqualTo(
            new OrderImage(7, "order-7", 3L, 112010L, "created", 10L, 304, 1767225601123000L));
    assertThat(envelope.after()).isNotNull();
    assertThat(envelope.after().eventId()).isEqualTo(11L);
    assertThat(envelope.beforeEventId()).isEqualTo(10L);
  }

  /** What Debezium's PostgreSQL connector writes, with transaction metadata when {@code order}. */
  static String postgresValue(String op, String before, String after, String transaction) {
    return """
        {"before":%s,"after":%s,"source":{"version":"3.5.0.Final","connector":"postgresql",\
        "name":"lab","ts_ms":1767225601000,"snapshot":"false","db":"lab",\
        "sequence":"[\\"24153720\\",\\"24154032\\"]","ts_us":1767225601000000,\
        "ts_ns":1767225601000000000,"schema":"public","table":"orders","txId":771,\
        "lsn":24154032,"xmin":null},"transaction":%s,"op":"%s","ts_ms":1767225601500}"""
        .formatted(before, after, transaction, op);
  }

  @Test
  void decodesAPostgresChangeByItsLsnAndItsOrderInsideItsTransaction() throws Exception {
    ChangeEnvelope inTransaction =
        decodeChange(
            key(7),
            postgresValue(
                "u",
                row(7, 10, "created"),
                row(7, 11, "paid"),
                "{\"id\":\"771:24154032\",\"total_order\":3,\"data_collection_order\":3}"));
    assertThat(inTransaction.binlogFile()).isEmpty();
    assertThat(inTransaction.binlogPos()).isEqualTo(24154032L);
    assertThat(inTransaction.rowIndex()).isEqualTo(3);
    assertThat(inTransaction.gtid()).isNull();
    assertThat(inTransaction.sourceTsMillis()).isEqualTo(1767225601000L);

    // a snapshot read has no transaction
    ChangeEnvelope read = decodeChange(key(7), postgresValue("r", "null", row(7, 10, "x"), "null"));
    assertThat(read.binlogPos()).isEqualTo(24154032L);
    assertThat(read.rowIndex()).isZero();

    // and a broken one says which field
    assertThat(
            refusal(key(7), postgresValue("c", "null", row(7, 10, "x"), "{\"total_order\":\"3\"}"))
                .getMessage())
        .contains("transaction.total_order");
  }

  @ParameterizedTest
  @CsvSource({"r", "c"})
  void decodesReadsAndCreatesWithTheAfterImageOnly(String op) throws Exception {
    ChangeEnvelope envelope = decodeChange(key(5), debeziumValue(op, "null", row(5, 1, "paid")));

    assertThat(envelope.op()).isEqualTo(op);
    assertThat(envelope.before()).isNull();
    assertThat(envelope.image().orderId()).isEqualTo(5L);
  }

  @Test
  void decodesADeleteByItsBeforeImage() throws Exception {
    ChangeEnvelope envelope = decodeChange(key(9), debeziumValue("d", row(9, 4, "paid"), "null"));

    assertThat(envelope.after()).isNull();
    assertThat(envelope.eventId()).isEqualTo(4L);
  }

  @Test
  void aNullValueIsATombstoneWhateverTheKey() throws Exception {
    assertThat(ChangeRecordCodec.decode(key(9), null)).isEqualTo(ChangeRecord.Tombstone.INSTANCE);
    assertThat(ChangeRecordCodec.decode(null, null)).isEqualTo(ChangeRecord.Tombstone.INSTANCE);
  }

  @ParameterizedTest
  @CsvSource({
    "'\"2026-01-01T00:00:01.123Z\"', 1767225601123000",
    "'\"2026-01-01T02:00:01.123456+02:00\"', 1767225601123456",
    "'\"2026-01-01T00:00:01.5\"', 1767225601500000",
    "null, ",
  })
  void acceptsIsoTimestampsAndNullForUpdatedAt(String json, Long micros) throws Exception {
    String image = row(5, 1, "paid").replace("1767225601123}", json + "}");

    ChangeEnvelope envelope = decodeChange(key(5), debeziumValue("c", "null", image));

    assertThat(envelope.image().updatedAtMicros()).isEqualTo(micros);
  }

  @Test
  void nullableColumnsMayBeNullButNotAbsent() throws Exception {
    String nulls =
        "{\"order_id\":5,\"business_key\":null,\"customer_id\":null,\"amount_cents\":null,"
            + "\"status\":null,\"event_id\":null,\"seed\":null,\"updated_at\":null}";
    assertThat(decodeChange(key(5), debeziumValue("c", "null", nulls)).after())
        .isEqualTo(new OrderImage(5, null, null, null, null, null, null, null));

    String noStatus = row(5, 1, "paid").replace("\"status\":\"paid\",", "");
    InvalidChangeRecordException e = refusal(key(5), debeziumValue("c", "null", noStatus));
    assertThat(e.error()).isEqualTo(ChangeRecordError.MISSING_FIELD);
    assertThat(e).hasMessageContaining("after image has no 'status' column");
  }

  @Test
  void refusesInvalidUtf8AndSaysWhere() {
    byte[] json = debeziumValue("c", "null", row(5, 1, "paid")).getBytes(UTF_8);
    byte[] poison = new byte[json.length + 2];
    poison[0] = (byte) 0xC3;
    poison[1] = (byte) 0x28;
    System.arraycopy(json, 0, poison, 2, json.length);

    InvalidChangeRecordException e = refusal(key(5), poison);

    assertThat(e.errorType()).isEqualTo("invalid-utf8");
    assertThat(e)
        .hasMessage(
            "value is not valid UTF-8: a malformed 1-byte sequence at byte 0 of " + poison.length);
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "''                                   | malformed-json | value is empty",
        "null                                 | malformed-json | JSON but null, not an object",
        "[1,2]                                | malformed-json | JSON but an array, not an object",
        "{\"op\":\"c\"} trailing                | malformed-json | not well-formed JSON",
        "{\"op\":\"c\",\"op\":\"c\"}              | malformed-json | not well-formed JSON",
        "{\"op\":\"c\"                          | malformed-json | was it truncated?",
        "{\"after\":null}                       | missing-field  | no 'op'",
        "{\"op\":1}                             | invalid-field  | 'op' must be a string",
        "{\"op\":\"x\"}                         | unknown-op     | op is none of r, c, u, d",
        "{\"op\":\"c\",\"after\":null}          | missing-field  | op 'c' needs a after image",
        "{\"op\":\"d\",\"after\":[]}            | invalid-field  | 'after' must be an object or null",
      })
  void refusesValuesThatAreNotEnvelopes(String value, String type, String message) {
    InvalidChangeRecordException e = refusal(key(5), value);

    assertThat(e.errorType()).isEqualTo(type);
    assertThat(e).hasMessageContaining(message);
  }

  @Test
  void refusesImagesThatDoNotFitTheOp() {
    assertThat(refusal(key(5), debeziumValue("c", row(5, 1, "x"), row(5, 2, "y"))))
        .hasMessageContaining("op 'c' must not carry a before image")
        .extracting(InvalidChangeRecordException::error)
        .isEqualTo(ChangeRecordError.INVALID_FIELD);
    assertThat(refusal(key(5), debeziumValue("u", "null", row(5, 2, "y"))).error())
        .isEqualTo(ChangeRecordError.MISSING_FIELD);
    assertThat(refusal(key(5), debeziumValue("u", row(6, 1, "x"), row(5, 2, "y"))))
        .hasMessageContaining("changes the order_id")
        .extracting(InvalidChangeRecordException::error)
        .isEqualTo(ChangeRecordError.KEY_MISMATCH);
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "\"file\":\"mysql-bin.000003\",    | \"file\":null,    | missing-field | 'source.file'",
        "\"pos\":1234,                     | \"pos\":\"1234\", | invalid-field | 'source.pos' must be an integer",
        "\"row\":2,                        | \"row\":2.5,      | invalid-field | 'source.row' must be an integer",
        "\"row\":2,                        | ''                | missing-field | 'source.row'",
        "\"gtid\":\"0-1-42\",              | \"gtid\":42,      | invalid-field | 'source.gtid' must be a string",
        "\"ts_ms\":1767225601000,\"snapshot\" | \"snapshot\"   | missing-field | 'source.ts_ms'",
        "\"seed\":304                      | \"seed\":30000000000 | invalid-field | 'after.seed' must be an integer that fits in 32 bits",
        "\"customer_id\":3                 | \"customer_id\":\"3\" | invalid-field | 'after.customer_id'",
        "\"updated_at\":1767225601123      | \"updated_at\":\"yesterday\" | invalid-field | 'after.updated_at'",
        "\"updated_at\":1767225601123      | \"updated_at\":9223372036854775807 | invalid-field | 'after.updated_at'",
        "{\"order_id\":5,                  | {\"order_id\":null, | missing-field | 'after.order_id'",
      })
  void refusesBadSourceAndImageFields(String from, String to, String type, String message) {
    String value = debeziumValue("c", "null", row(5, 1, "paid")).replace(from, to);

    InvalidChangeRecordException e = refusal(key(5), value);

    assertThat(e.errorType()).isEqualTo(type);
    assertThat(e).hasMessageContaining(message);
  }

  @Test
  void refusesMissingUnreadableAndMismatchedKeys() {
    String value = debeziumValue("c", "null", row(5, 1, "paid"));

    assertThat(refusal(null, value).errorType()).isEqualTo("missing-key");
    assertThat(refusal(key(6), value).errorType()).isEqualTo("key-mismatch");
    assertThat(refusal(new byte[] {(byte) 0xFF}, value))
        .hasMessageContaining("key is not valid UTF-8")
        .extracting(InvalidChangeRecordException::errorType)
        .isEqualTo("invalid-key");
    assertThat(refusal("5".getBytes(UTF_8), value).errorType()).isEqualTo("invalid-key");
    assertThat(refusal("{\"order_id\":\"5\"}".getBytes(UTF_8), value).errorType())
        .isEqualTo("invalid-key");
    assertThat(refusal("{\"id\":5}".getBytes(UTF_8), value))
        .hasMessageContaining("order_id is absent");
  }

  @Test
  void messagesNeverQuoteTheRecord() {
    String secret = "s3cr3t-Token";
    String[] corrupt = {
      "{\"op\":" + secret + "}",
      "{\"" + secret + "\":1,\"op\":\"c\"",
      debeziumValue("c", "null", row(5, 1, secret))
          .replace("\"op\":\"c\"", "\"op\":\"" + secret + "\""),
      debeziumValue("c", "null", row(5, 1, "paid"))
          .replace("\"seed\":304", "\"seed\":\"" + secret + "\""),
      debeziumValue("c", "null", row(5, 1, "paid"))
          .replace("1767225601123}", "\"" + secret + "\"}"),
    };
    for (String value : corrupt) {
      assertThat(refusal(key(5), value).getMessage()).doesNotContain(secret);
    }
    assertThat(refusal((secret + "}").getBytes(UTF_8), debeziumValue("c", "null", row(5, 1, "a"))))
        .message()
        .doesNotContain(secret);
  }

  @Test
  void encodesTheWireFormat() {
    ChangeEnvelope envelope =
        new ChangeEnvelope(
            "u",
            new OrderImage(7, "order-7", 3L, 112010L, "created", 10L, 304, 1767225601123000L),
            new OrderImage(7, "order-7", 3L, 112010L, "paid", 11L, 304, 1767225601123456L),
            "mysql-bin.000003",
            1234L,
            2,
            null,
            1767225601000L);

    WireRecord wire = ChangeRecordCodec.encode(envelope);

    assertThat(new String(wire.key(), UTF_8)).isEqualTo("{\"order_id\":7}");
    assertThat(new String(wire.value(), UTF_8))
        .isEqualTo(
            "{\"before\":{\"order_id\":7,\"business_key\":\"order-7\",\"customer_id\":3,"
                + "\"amount_cents\":112010,\"status\":\"created\",\"event_id\":10,\"seed\":304,"
                + "\"updated_at\":1767225601123},"
                + "\"after\":{\"order_id\":7,\"business_key\":\"order-7\",\"customer_id\":3,"
                + "\"amount_cents\":112010,\"status\":\"paid\",\"event_id\":11,\"seed\":304,"
                + "\"updated_at\":\"2026-01-01T00:00:01.123456Z\"},"
                + "\"source\":{\"ts_ms\":1767225601000,\"gtid\":null,"
                + "\"file\":\"mysql-bin.000003\",\"pos\":1234,\"row\":2},"
                + "\"op\":\"u\",\"transaction\":null}");
  }

  @Test
  void refusesToEncodeWhatItCouldNotDecode() {
    OrderImage image = new OrderImage(7, null, null, null, null, null, null, null);
    OrderImage other = new OrderImage(8, null, null, null, null, null, null, null);

    assertThatThrownBy(() -> ChangeRecordCodec.encode(envelope("x", null, image)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("op 'x'");
    assertThatThrownBy(() -> ChangeRecordCodec.encode(envelope("c", image, image)))
        .hasMessageContaining("r and c carry only after");
    assertThatThrownBy(() -> ChangeRecordCodec.encode(envelope("d", null, null)))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> ChangeRecordCodec.encode(envelope("u", image, other)))
        .hasMessageContaining("changes the order_id");
    OrderImage loneSurrogate = new OrderImage(7, "\uD800", null, null, null, null, null, null);
    assertThatThrownBy(() -> ChangeRecordCodec.encode(envelope("c", null, loneSurrogate)))
        .hasMessageContaining("not valid Unicode");
  }

  private static ChangeEnvelope envelope(String op, OrderImage before, OrderImage after) {
    return new ChangeEnvelope(op, before, after, "f", 1L, 0, null, 0L);
  }
}
