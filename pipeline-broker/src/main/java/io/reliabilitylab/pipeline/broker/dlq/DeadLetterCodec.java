package io.reliabilitylab.pipeline.broker.dlq;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.reliabilitylab.spi.check.DlqRecord;
import java.io.IOException;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Base64;
import java.util.Objects;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * Writes and reads {@link DeadLetter}s as the JSON value of a dead-letter topic record, and turns
 * one into the SPI's {@link DlqRecord} for the {@code dlq-integrity} check.
 *
 * <p>The JSON object has snake_case fields in this order: {@code dlq_schema_version}, {@code
 * quarantined_at} (ISO-8601 instant), {@code original_topic}, {@code original_partition}, {@code
 * original_offset}, {@code original_timestamp_ms}, {@code original_key_base64} and {@code
 * original_value_base64} (standard base64, null when the record had none), {@code error_type},
 * {@code error_message}.
 *
 * <pre>{@code
 * byte[] json = DeadLetterCodec.encode(deadLetter);
 * DeadLetter back = DeadLetterCodec.decode(json);
 * DlqRecord evidence = DeadLetterCodec.toSpi(back, "orders.dlq", 0, 17L, injectedValueSha256);
 * }</pre>
 */
@API(status = EXPERIMENTAL)
public final class DeadLetterCodec {

  private static final JsonMapper MAPPER =
      JsonMapper.builder()
          .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
          // keep content (the base64 payload) out of parse error locations
          .disable(StreamReadFeature.INCLUDE_SOURCE_IN_LOCATION)
          .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
          .build();

  static final String SCHEMA_VERSION = "dlq_schema_version";
  static final String QUARANTINED_AT = "quarantined_at";
  static final String ORIGINAL_TOPIC = "original_topic";
  static final String ORIGINAL_PARTITION = "original_partition";
  static final String ORIGINAL_OFFSET = "original_offset";
  static final String ORIGINAL_TIMESTAMP_MS = "original_timestamp_ms";
  static final String ORIGINAL_KEY_BASE64 = "original_key_base64";
  static final String ORIGINAL_VALUE_BASE64 = "original_value_base64";
  static final String ERROR_TYPE = "error_type";
  static final String ERROR_MESSAGE = "error_message";

  private DeadLetterCodec() {}

  /** The dead letter as UTF-8 JSON, the value of a dead-letter topic record. */
  public static byte[] encode(DeadLetter deadLetter) {
    Objects.requireNonNull(deadLetter, "deadLetter");
    ObjectNode node = JsonNodeFactory.instance.objectNode();
    node.put(SCHEMA_VERSION, deadLetter.dlqSchemaVersion());
    Instant quarantinedAt = deadLetter.quarantinedAt();
    node.put(QUARANTINED_AT, quarantinedAt == null ? null : quarantinedAt.toString());
    node.put(ORIGINAL_TOPIC, deadLetter.originalTopic());
    node.put(ORIGINAL_PARTITION, deadLetter.originalPartition());
    node.put(ORIGINAL_OFFSET, deadLetter.originalOffset());
    node.put(ORIGINAL_TIMESTAMP_MS, deadLetter.originalTimestampMs());
    node.put(ORIGINAL_KEY_BASE64, base64(deadLetter.originalKey()));
    node.put(ORIGINAL_VALUE_BASE64, base64(deadLetter.originalValue()));
    node.put(ERROR_TYPE, deadLetter.errorType());
    node.put(ERROR_MESSAGE, deadLetter.errorMessage());
    try {
      return MAPPER.writeValueAsBytes(node);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException(
          "Cannot write the dead letter of "
              + deadLetter.originalTopic()
              + "-"
              + deadLetter.originalPartition()
              + "@"
              + deadLetter.originalOffset()
              + " as JSON: its error text is not valid Unicode",
          e);
    }
  }

  /**
   * Reads a dead letter from the value of a dead-letter topic record.
   *
   * @throws InvalidDeadLetterException if the bytes are not a dead letter of a schema version this
   *     code knows; the message names the field and never quotes content
   */
  public static DeadLetter decode(byte[] json) throws InvalidDeadLetterException {
    Objects.requireNonNull(json, "json");
    JsonNode root;
    try {
      root = MAPPER.readTree(json);
    } catch (JsonProcessingException e) {
      throw new InvalidDeadLetterException(
          "dead letter is not well-formed UTF-8 JSON (" + where(e) + ")");
    } catch (IOException e) {
      throw new InvalidDeadLetterException(
          "dead letter could not be read: " + e.getClass().getSimpleName());
    }
    if (root == null || !root.isObject()) {
      throw new InvalidDeadLetterException(
          "dead letter is not a JSON object; a record of the dead-letter topic was expected");
    }
    int version = (int) integer(root, SCHEMA_VERSION, Integer.MIN_VALUE, Integer.MAX_VALUE);
    if (version != DeadLetter.SCHEMA_VERSION) {
      throw new InvalidDeadLetterException(
          "dead letter has "
              + SCHEMA_VERSION
              + " "
              + version
              + "; this reader knows version "
              + DeadLetter.SCHEMA_VERSION
              + (version > DeadLetter.SCHEMA_VERSION ? " (written by a newer lab?)" : ""));
    }
    String quarantinedText = optionalText(root, QUARANTINED_AT);
    Instant quarantinedAt = null;
    if (quarantinedText != null) {
      try {
        quarantinedAt = Instant.parse(quarantinedText);
      } catch (DateTimeParseException e) {
        throw new InvalidDeadLetterException(
            "dead letter's " + QUARANTINED_AT + " is not an ISO-8601 instant");
      }
    }
    String topic = optionalText(root, ORIGINAL_TOPIC);
    if (topic == null) {
      throw new InvalidDeadLetterException(
          "dead letter has no " + ORIGINAL_TOPIC + " (absent or null)");
    }
    return new DeadLetter(
        version,
        quarantinedAt,
        topic,
        (int) integer(root, ORIGINAL_PARTITION, 0, Integer.MAX_VALUE),
        integer(root, ORIGINAL_OFFSET, Long.MIN_VALUE, Long.MAX_VALUE),
        integer(root, ORIGINAL_TIMESTAMP_MS, Long.MIN_VALUE, Long.MAX_VALUE),
        bytes(root, ORIGINAL_KEY_BASE64),
        bytes(root, ORIGINAL_VALUE_BASE64),
        optionalText(root, ERROR_TYPE),
        optionalText(root, ERROR_MESSAGE));
  }

  /**
   * The SPI view of a dead letter read at {@code dlqTopic}/{@code partition}/{@code offset}; says
   * the original bytes are preserved when the dead letter holds an original value.
   */
  public static DlqRecord toSpi(
      DeadLetter deadLetter, String dlqTopic, int partition, long offset) {
    return toSpi(deadLetter, dlqTopic, partition, offset, null);
  }

  /**
   * The SPI view of a dead letter read at {@code dlqTopic}/{@code partition}/{@code offset}.
   *
   * <p>{@link DlqRecord#originalValueSha256()} and {@link DlqRecord#originalValueLength()} describe
   * the original value the dead letter holds ({@code ""} and 0 when it holds none). {@link
   * DlqRecord#originalBytesPreserved()} is true when the dead letter holds an original value and,
   * if {@code expectedValueSha256} is given (the SHA-256 of the bytes the fault actually corrupted,
   * from its evidence), that value's SHA-256 equals it.
   */
  public static DlqRecord toSpi(
      DeadLetter deadLetter,
      String dlqTopic,
      int partition,
      long offset,
      @Nullable String expectedValueSha256) {
    Objects.requireNonNull(deadLetter, "deadLetter");
    Objects.requireNonNull(dlqTopic, "dlqTopic");
    byte[] value = deadLetter.originalValue();
    String sha256 = value == null ? "" : Payloads.sha256Hex(value);
    boolean preserved =
        value != null
            && (expectedValueSha256 == null || expectedValueSha256.equalsIgnoreCase(sha256));
    return new DlqRecord(
        dlqTopic,
        partition,
        offset,
        deadLetter.originalTopic(),
        deadLetter.originalPartition(),
        deadLetter.originalOffset(),
        deadLetter.originalTimestampMs(),
        deadLetter.errorType(),
        deadLetter.errorMessage(),
        deadLetter.quarantinedAt(),
        deadLetter.dlqSchemaVersion(),
        sha256,
        value == null ? 0 : value.length,
        preserved);
  }

  private static @Nullable String base64(byte @Nullable [] bytes) {
    return bytes == null ? null : Base64.getEncoder().encodeToString(bytes);
  }

  private static byte @Nullable [] bytes(JsonNode root, String field)
      throws InvalidDeadLetterException {
    String text = optionalText(root, field);
    if (text == null) {
      return null;
    }
    try {
      return Base64.getDecoder().decode(text);
    } catch (IllegalArgumentException e) {
      throw new InvalidDeadLetterException(
          "dead letter's " + field + " is not standard base64 (" + text.length() + " characters)");
    }
  }

  private static long integer(JsonNode root, String field, long min, long max)
      throws InvalidDeadLetterException {
    JsonNode node = root.get(field);
    if (node == null || node.isNull()) {
      throw new InvalidDeadLetterException("dead letter has no " + field + " (absent or null)");
    }
    if (!node.isIntegralNumber()
        || !node.canConvertToLong()
        || node.longValue() < min
        || node.longValue() > max) {
      throw new InvalidDeadLetterException(
          "dead letter's " + field + " must be an integer in [" + min + ", " + max + "]");
    }
    return node.longValue();
  }

  private static @Nullable String optionalText(JsonNode root, String field)
      throws InvalidDeadLetterException {
    JsonNode node = root.get(field);
    if (node == null || node.isNull()) {
      return null;
    }
    if (!node.isTextual()) {
      throw new InvalidDeadLetterException(
          "dead letter's "
              + field
              + " must be a string or null, but it is a "
              + node.getNodeType());
    }
    return node.textValue();
  }

  private static String where(JsonProcessingException e) {
    JsonLocation location = e.getLocation();
    String kind = e.getClass().getSimpleName();
    return location == null
        ? kind
        : kind + " at line " + location.getLineNr() + ", column " + location.getColumnNr();
  }
}
