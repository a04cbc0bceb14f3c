package io.reliabilitylab.pipeline.broker.wire;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.io.JsonEOFException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.reliabilitylab.pipeline.flink.envelope.ChangeEnvelope;
import io.reliabilitylab.pipeline.flink.envelope.OrderImage;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.Locale;
import java.util.Objects;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * Decodes and encodes the broker pipeline's change records: the key is UTF-8 JSON {@code
 * {"order_id":<long>}}, the value Debezium's JSON change envelope without schema ({@code
 * JsonConverter} with {@code schemas.enable=false}), a null value a tombstone.
 *
 * <p>Decoding is strict, so that a corrupted record is refused rather than half-applied: the value
 * must be valid UTF-8, one JSON object without duplicate fields, with {@code op} in {@code
 * r/c/u/d}, exactly the row images that op carries, every column of {@code orders} in each image,
 * {@code source.file}, {@code source.pos}, {@code source.row} and {@code source.ts_ms} (from
 * PostgreSQL's connector {@code source.lsn} and {@code source.ts_ms}, with {@code
 * transaction.total_order} when it provides transaction metadata), and a key whose {@code order_id}
 * is the image's. {@code updated_at} is epoch milliseconds (Debezium's {@code
 * io.debezium.time.Timestamp} for {@code DATETIME(3)}) or, defensively, an ISO-8601 text. Error
 * messages name fields, JSON types and byte offsets, never content.
 *
 * <p>Encoding writes the same format from a {@link ChangeEnvelope}, so that a repaired change can
 * be republished. The envelope carries no connector name, database, server id or processing time;
 * those fields are left out (the decoder does not need them). {@code updated_at} is written as
 * epoch milliseconds when it is a whole millisecond, else as an ISO-8601 instant, so that encoding
 * then decoding gives back the same envelope.
 *
 * <pre>{@code
 * ChangeRecord record = ChangeRecordCodec.decode(consumerRecord.key(), consumerRecord.value());
 * if (record instanceof ChangeRecord.Change change) {
 *   ChangeEnvelope envelope = change.envelope();
 * }
 * WireRecord wire = ChangeRecordCodec.encode(envelope); // key + value bytes
 * }</pre>
 */
@API(status = EXPERIMENTAL)
public final class ChangeRecordCodec {

  private static final JsonMapper MAPPER =
      JsonMapper.builder()
          .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
          // keep content out of parse error locations, which end up in messages and logs
          .disable(StreamReadFeature.INCLUDE_SOURCE_IN_LOCATION)
          .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
          .enable(DeserializationFeature.FAIL_ON_READING_DUP_TREE_KEY)
          .build();
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private static final String ORDER_ID = "order_id";
  private static final String BUSINESS_KEY = "business_key";
  private static final String CUSTOMER_ID = "customer_id";
  private static final String AMOUNT_CENTS = "amount_cents";
  private static final String STATUS = "status";
  private static final String EVENT_ID = "event_id";
  private static final String SEED = "seed";
  private static final String UPDATED_AT = "updated_at";

  private ChangeRecordCodec() {}

  /**
   * Decodes one Kafka record of the change topic.
   *
   * @param key the record's key bytes
   * @param value the record's value bytes; null for a tombstone
   * @return {@link ChangeRecord.Tombstone#INSTANCE} for a null value, else the change
   * @throws InvalidChangeRecordException if the record is not a valid change of the wire format
   */
  public static ChangeRecord decode(byte @Nullable [] key, byte @Nullable [] value)
      throws InvalidChangeRecordException {
    if (value == null) {
      return ChangeRecord.Tombstone.INSTANCE;
    }
    ChangeEnvelope envelope = decodeValue(value);
    if (key == null) {
      throw new InvalidChangeRecordException(
          ChangeRecordError.MISSING_KEY,
          "change record has no key; the topic's records are keyed by {\"order_id\":<long>}");
    }
    long keyOrderId = decodeKey(key);
    if (keyOrderId != envelope.image().orderId()) {
      throw new InvalidChangeRecordException(
          ChangeRecordError.KEY_MISMATCH,
          "the key's order_id differs from the order_id of the "
              + ("d".equals(envelope.op()) ? "before" : "after")
              + " image; a record must be keyed by the primary key of the row it changes");
    }
    return new ChangeRecord.Change(envelope);
  }

  /**
   * Decodes a change envelope from a record value alone, without checking it against a key.
   *
   * @throws InvalidChangeRecordException if the value is not a valid change envelope
   */
  public static ChangeEnvelope decodeValue(byte[] value) throws InvalidChangeRecordException {
    Objects.requireNonNull(value, "value");
    JsonNode root = parseObject(utf8(value, ChangeRecordError.INVALID_UTF8, "value"));

    JsonNode opNode = required(root, "op", "op");
    if (!opNode.isTextual()) {
      throw invalid("op", "a string", opNode);
    }
    String op = opNode.textValue();
    if (!(op.equals("r") || op.equals("c") || op.equals("u") || op.equals("d"))) {
      throw new InvalidChangeRecordException(
          ChangeRecordError.UNKNOWN_OP,
          "op is none of r, c, u, d (a "
              + op.length()
              + "-character string); a Debezium change envelope was expected");
    }

    OrderImage before = image(root, "before");
    OrderImage after = image(root, "after");
    boolean needsBefore = op.equals("u") || op.equals("d");
    boolean needsAfter = !op.equals("d");
    checkImage("before", before, needsBefore, op);
    checkImage("after", after, needsAfter, op);
    if (before != null && after != null && before.orderId() != after.orderId()) {
      throw new InvalidChangeRecordException(
          ChangeRecordError.KEY_MISMATCH,
          "an envelope with op 'u' changes the order_id between its before and after images; Debezium"
              + " sends a primary-key change as 'd' + 'c'");
    }

    JsonNode source = required(root, "source", "source");
    if (!source.isObject()) {
      throw invalid("source", "an object", source);
    }
    long tsMillis = longValue(required(source, "ts_ms", "source.ts_ms"), "source.ts_ms");
    if (source.has("lsn") && !source.has("file")) {
      // PostgreSQL: no log file; the change's LSN, then its order inside its transaction
      long lsn = longValue(required(source, "lsn", "source.lsn"), "source.lsn");
      JsonNode transaction = root.get("transaction");
      int order =
          transaction == null || transaction.isNull()
              ? 0
              : intValue(
                  required(transaction, "total_order", "transaction.total_order"),
                  "transaction.total_order");
      return new ChangeEnvelope(op, before, after, "", lsn, order, null, tsMillis);
    }
    JsonNode fileNode = required(source, "file", "source.file");
    if (!fileNode.isTextual()) {
      throw invalid("source.file", "a string", fileNode);
    }
    long pos = longValue(required(source, "pos", "source.pos"), "source.pos");
    int row = intValue(required(source, "row", "source.row"), "source.row");
    String gtid = optionalField(source, "gtid", "source.gtid");
    return new ChangeEnvelope(op, before, after, fileNode.textValue(), pos, row, gtid, tsMillis);
  }

  /**
   * The order_id of a record key {@code {"order_id":<long>}}.
   *
   * @throws InvalidChangeRecordException ({@link ChangeRecordError#INVALID_KEY}) if the key is not
   *     of that form
   */
  public static long decodeKey(byte[] key) throws InvalidChangeRecordException {
    Objects.requireNonNull(key, "key");
    String text = utf8(key, ChangeRecordError.INVALID_KEY, "key");
    JsonNode root;
    try {
      root = MAPPER.readTree(text);
    } catch (JsonProcessingException e) {
      throw new InvalidChangeRecordException(
          ChangeRecordError.INVALID_KEY,
          "key is not well-formed JSON (" + where(e) + "); expected {\"order_id\":<long>}");
    }
    if (root == null || !root.isObject()) {
      throw new InvalidChangeRecordException(
          ChangeRecordError.INVALID_KEY,
          "key is not a JSON object (" + type(root) + "); expected {\"order_id\":<long>}");
    }
    JsonNode orderId = root.get(ORDER_ID);
    if (orderId == null || !orderId.isIntegralNumber() || !orderId.canConvertToLong()) {
      throw new InvalidChangeRecordException(
          ChangeRecordError.INVALID_KEY,
          "key's order_id is "
              + (orderId == null ? "absent" : type(orderId))
              + "; expected {\"order_id\":<long>}");
    }
    return orderId.longValue();
  }

  /**
   * Encodes an envelope as a change record: key {@code {"order_id":...}} of the image the envelope
   * carries, value the JSON change envelope.
   *
   * @throws IllegalArgumentException if the envelope could not be decoded again: its op is unknown,
   *     it lacks the images its op needs or carries one its op forbids, an update changes the
   *     order_id, or a text holds an unpaired surrogate
   */
  public static WireRecord encode(ChangeEnvelope envelope) {
    Objects.requireNonNull(envelope, "envelope");
    String op = envelope.op();
    if (!(op.equals("r") || op.equals("c") || op.equals("u") || op.equals("d"))) {
      throw new IllegalArgumentException(
          "Cannot encode an envelope with op '" + op + "': the wire format knows r, c, u, d");
    }
    boolean needsBefore = op.equals("u") || op.equals("d");
    boolean needsAfter = !op.equals("d");
    if ((envelope.before() != null) != needsBefore || (envelope.after() != null) != needsAfter) {
      throw new IllegalArgumentException(
          "Cannot encode an envelope with op '"
              + op
              + "' and "
              + (envelope.before() == null ? "no" : "a")
              + " before and "
              + (envelope.after() == null ? "no" : "an")
              + " after image: "
              + "r and c carry only after, u both, d only before");
    }
    if (envelope.before() != null
        && envelope.after() != null
        && envelope.before().orderId() != envelope.after().orderId()) {
      throw new IllegalArgumentException(
          "Cannot encode an update that changes the order_id: encode 'd' + 'c' instead");
    }
    for (OrderImage image : new OrderImage[] {envelope.before(), envelope.after()}) {
      if (image != null) {
        requireUnicode(image.businessKey(), "business_key");
        requireUnicode(image.status(), "status");
      }
    }
    requireUnicode(envelope.binlogFile(), "source.file");
    requireUnicode(envelope.gtid(), "source.gtid");
    ObjectNode value = NODES.objectNode();
    value.set("before", imageNode(envelope.before()));
    value.set("after", imageNode(envelope.after()));
    ObjectNode source = value.putObject("source");
    source.put("ts_ms", envelope.sourceTsMillis());
    source.put("gtid", envelope.gtid());
    source.put("file", envelope.binlogFile());
    source.put("pos", envelope.binlogPos());
    source.put("row", envelope.rowIndex());
    value.put("op", op);
    value.putNull("transaction");
    try {
      return new WireRecord(encodeKey(envelope.image().orderId()), MAPPER.writeValueAsBytes(value));
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("Jackson could not write a tree of plain values", e);
    }
  }

  /** Refuses text with an unpaired surrogate, which has no UTF-8 form the decoder would accept. */
  private static void requireUnicode(@Nullable String text, String field) {
    if (text == null) {
      return;
    }
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (Character.isHighSurrogate(c)
          && i + 1 < text.length()
          && Character.isLowSurrogate(text.charAt(i + 1))) {
        i++;
      } else if (Character.isSurrogate(c)) {
        throw new IllegalArgumentException(
            "Cannot encode the envelope: its "
                + field
                + " is not valid Unicode (an unpaired surrogate at index "
                + i
                + ")");
      }
    }
  }

  /** The record key of a row: UTF-8 JSON {@code {"order_id":<orderId>}}. */
  public static byte[] encodeKey(long orderId) {
    return ("{\"" + ORDER_ID + "\":" + orderId + "}").getBytes(StandardCharsets.UTF_8);
  }

  private static @Nullable ObjectNode imageNode(@Nullable OrderImage image) {
    if (image == null) {
      return null;
    }
    ObjectNode node = NODES.objectNode();
    node.put(ORDER_ID, image.orderId());
    node.put(BUSINESS_KEY, image.businessKey());
    node.put(CUSTOMER_ID, image.customerId());
    node.put(AMOUNT_CENTS, image.amountCents());
    node.put(STATUS, image.status());
    node.put(EVENT_ID, image.eventId());
    node.put(SEED, image.seed());
    Long micros = image.updatedAtMicros();
    if (micros == null) {
      node.putNull(UPDATED_AT);
    } else if (Math.floorMod(micros, 1_000L) == 0) {
      node.put(UPDATED_AT, Math.floorDiv(micros, 1_000L));
    } else {
      // sub-millisecond precision does not fit Debezium's millisecond Timestamp
      node.put(UPDATED_AT, Instant.EPOCH.plus(micros, ChronoUnit.MICROS).toString());
    }
    return node;
  }

  private static String utf8(byte[] bytes, ChangeRecordError error, String what)
      throws InvalidChangeRecordException {
    CharsetDecoder decoder =
        StandardCharsets.UTF_8
            .newDecoder()
            .onMalformedInput(CodingErrorAction.REPORT)
            .onUnmappableCharacter(CodingErrorAction.REPORT);
    ByteBuffer in = ByteBuffer.wrap(bytes);
    CharBuffer out = CharBuffer.allocate(bytes.length);
    CoderResult result = decoder.decode(in, out, true);
    if (!result.isError()) {
      result = decoder.flush(out);
    }
    if (result.isError()) {
      throw new InvalidChangeRecordException(
          error,
          what
              + " is not valid UTF-8: a malformed "
              + result.length()
              + "-byte sequence at byte "
              + in.position()
              + " of "
              + bytes.length);
    }
    return out.flip().toString();
  }

  private static JsonNode parseObject(String text) throws InvalidChangeRecordException {
    JsonNode root;
    try {
      root = MAPPER.readTree(text);
    } catch (JsonEOFException e) {
      throw new InvalidChangeRecordException(
          ChangeRecordError.MALFORMED_JSON,
          "value ends inside its JSON document (" + where(e) + "); was it truncated?");
    } catch (JsonProcessingException e) {
      throw new InvalidChangeRecordException(
          ChangeRecordError.MALFORMED_JSON, "value is not well-formed JSON (" + where(e) + ")");
    }
    if (root == null || root.isMissingNode()) {
      throw new InvalidChangeRecordException(
          ChangeRecordError.MALFORMED_JSON,
          "value is empty; a JSON change envelope was expected (a tombstone has a null value)");
    }
    if (!root.isObject()) {
      throw new InvalidChangeRecordException(
          ChangeRecordError.MALFORMED_JSON,
          "value is JSON but " + type(root) + ", not an object; a change envelope was expected");
    }
    return root;
  }

  /** Where a parse error happened, without the parser's message (which quotes content). */
  private static String where(JsonProcessingException e) {
    JsonLocation location = e.getLocation();
    String kind = e.getClass().getSimpleName();
    if (location == null) {
      return kind;
    }
    return kind
        + " at line "
        + location.getLineNr()
        + ", column "
        + location.getColumnNr()
        + ", character "
        + location.getCharOffset();
  }

  private static @Nullable OrderImage image(JsonNode root, String name)
      throws InvalidChangeRecordException {
    JsonNode node = root.get(name);
    if (node == null || node.isNull()) {
      return null;
    }
    if (!node.isObject()) {
      throw invalid(name, "an object or null", node);
    }
    JsonNode orderId = required(node, ORDER_ID, name + "." + ORDER_ID);
    JsonNode seed = column(node, name, SEED);
    return new OrderImage(
        longValue(orderId, name + "." + ORDER_ID),
        optionalText(node, name, BUSINESS_KEY),
        optionalLong(node, name, CUSTOMER_ID),
        optionalLong(node, name, AMOUNT_CENTS),
        optionalText(node, name, STATUS),
        optionalLong(node, name, EVENT_ID),
        seed == null ? null : intValue(seed, name + "." + SEED),
        updatedAtMicros(column(node, name, UPDATED_AT), name + "." + UPDATED_AT));
  }

  private static void checkImage(String name, @Nullable OrderImage image, boolean needed, String op)
      throws InvalidChangeRecordException {
    if (needed && image == null) {
      throw new InvalidChangeRecordException(
          ChangeRecordError.MISSING_FIELD,
          "an envelope with op '" + op + "' needs a " + name + " image, but it is absent or null");
    }
    if (!needed && image != null) {
      throw new InvalidChangeRecordException(
          ChangeRecordError.INVALID_FIELD,
          "an envelope with op '" + op + "' must not carry a " + name + " image");
    }
  }

  /** A column of an image: must be present; null when its value is JSON null. */
  private static @Nullable JsonNode column(JsonNode image, String imageName, String column)
      throws InvalidChangeRecordException {
    JsonNode node = image.get(column);
    if (node == null) {
      throw new InvalidChangeRecordException(
          ChangeRecordError.MISSING_FIELD,
          imageName
              + " image has no '"
              + column
              + "' column; every column of orders must be present (null is allowed)");
    }
    return node.isNull() ? null : node;
  }

  private static @Nullable Long optionalLong(JsonNode image, String imageName, String column)
      throws InvalidChangeRecordException {
    JsonNode node = column(image, imageName, column);
    return node == null ? null : longValue(node, imageName + "." + column);
  }

  private static @Nullable String optionalText(JsonNode image, String imageName, String column)
      throws InvalidChangeRecordException {
    JsonNode node = column(image, imageName, column);
    return node == null ? null : text(node, imageName + "." + column);
  }

  private static JsonNode required(JsonNode parent, String field, String path)
      throws InvalidChangeRecordException {
    JsonNode node = parent.get(field);
    if (node == null || node.isNull()) {
      throw new InvalidChangeRecordException(
          ChangeRecordError.MISSING_FIELD,
          "value has no '" + path + "' (absent or null); a Debezium change envelope needs it");
    }
    return node;
  }

  private static @Nullable String optionalField(JsonNode parent, String field, String path)
      throws InvalidChangeRecordException {
    JsonNode node = parent.get(field);
    return node == null || node.isNull() ? null : text(node, path);
  }

  private static String text(@Nullable JsonNode node, String path)
      throws InvalidChangeRecordException {
    if (node == null || !node.isTextual()) {
      throw invalid(path, "a string", node);
    }
    return node.textValue();
  }

  private static long longValue(JsonNode node, String path) throws InvalidChangeRecordException {
    if (!node.isIntegralNumber() || !node.canConvertToLong()) {
      throw invalid(path, "an integer that fits in 64 bits", node);
    }
    return node.longValue();
  }

  private static int intValue(@Nullable JsonNode node, String path)
      throws InvalidChangeRecordException {
    if (node == null || !node.isIntegralNumber() || !node.canConvertToInt()) {
      throw invalid(path, "an integer that fits in 32 bits", node);
    }
    return node.intValue();
  }

  /**
   * {@code updated_at} in microseconds: epoch millis as Debezium writes {@code DATETIME(3)}, or an
   * ISO-8601 text (with an offset, or without one meaning UTC).
   */
  private static @Nullable Long updatedAtMicros(@Nullable JsonNode node, String path)
      throws InvalidChangeRecordException {
    if (node == null) {
      return null;
    }
    if (node.isIntegralNumber() && node.canConvertToLong()) {
      try {
        return Math.multiplyExact(node.longValue(), 1_000L);
      } catch (ArithmeticException e) {
        throw invalid(path, "epoch milliseconds within the range of microseconds", node);
      }
    }
    if (node.isTextual()) {
      Instant instant = parseInstant(node.textValue());
      if (instant != null) {
        try {
          return epochMicros(instant);
        } catch (ArithmeticException e) {
          throw invalid(path, "an instant within the range of epoch microseconds", node);
        }
      }
    }
    throw invalid(path, "epoch milliseconds or an ISO-8601 timestamp", node);
  }

  /** Microseconds since the epoch, exact down to Long.MIN_VALUE (ChronoUnit overflows there). */
  private static long epochMicros(Instant instant) {
    long seconds = instant.getEpochSecond();
    long micros = instant.getNano() / 1_000;
    if (seconds < 0 && micros > 0) {
      seconds += 1;
      micros -= 1_000_000;
    }
    return Math.addExact(Math.multiplyExact(seconds, 1_000_000L), micros);
  }

  private static @Nullable Instant parseInstant(String text) {
    try {
      return OffsetDateTime.parse(text).toInstant();
    } catch (DateTimeParseException withOffset) {
      try {
        return LocalDateTime.parse(text).toInstant(ZoneOffset.UTC);
      } catch (DateTimeParseException withoutOffset) {
        return null;
      }
    }
  }

  private static InvalidChangeRecordException invalid(
      String path, String expected, @Nullable JsonNode actual) {
    return new InvalidChangeRecordException(
        ChangeRecordError.INVALID_FIELD,
        "'" + path + "' must be " + expected + ", but it is " + type(actual));
  }

  /** A JSON node's type for a message, e.g. "a string" — never its value. */
  private static String type(@Nullable JsonNode node) {
    if (node == null || node.isMissingNode()) {
      return "absent";
    }
    return switch (node.getNodeType()) {
      case NULL -> "null";
      case ARRAY -> "an array";
      case OBJECT -> "an object";
      case STRING -> "a string";
      case BOOLEAN -> "a boolean";
      case NUMBER -> node.isIntegralNumber() ? "an integer" : "a non-integer number";
      default -> "a " + node.getNodeType().name().toLowerCase(Locale.ROOT);
    };
  }
}
