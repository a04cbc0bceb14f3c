package io.reliabilitylab.pipeline.broker.source;

import io.reliabilitylab.spi.data.ChangeOp;
import io.reliabilitylab.spi.data.SourcePosition;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.json.JsonConverter;
import org.apache.kafka.connect.source.SourceRecord;
import org.jspecify.annotations.Nullable;

/**
 * Turns Debezium's change records into the broker pipeline's wire format: key {@code
 * {"order_id":<long>}}, value Debezium's JSON envelope without schema ({@code before}, {@code
 * after}, {@code source}, {@code op}, {@code ts_ms}, ...), a tombstone's value null. Not thread
 * safe: one per engine thread.
 */
final class ChangeEncoder {

  /** The invalid UTF-8 sequence a poison value starts with: 0xC3 needs a continuation byte. */
  static final byte[] POISON_PREFIX = {(byte) 0xC3, (byte) 0x28};

  static final String KEY_FIELD = "order_id";

  private final JsonConverter keyConverter = new JsonConverter();
  private final JsonConverter valueConverter = new JsonConverter();

  ChangeEncoder() {
    keyConverter.configure(Map.of("schemas.enable", "false"), true);
    valueConverter.configure(Map.of("schemas.enable", "false"), false);
  }

  /** One record ready to publish, with what the evidence needs about it. */
  record Encoded(
      byte[] key,
      byte @Nullable [] value,
      long orderId,
      @Nullable ChangeOp op,
      @Nullable SourcePosition position,
      boolean snapshot) {

    boolean tombstone() {
      return value == null;
    }
  }

  /**
   * Encodes a change record or a tombstone. A tombstone has no source block: its position is {@code
   * null} here and the caller gives it its delete's.
   */
  Encoded encode(SourceRecord record) {
    if (!(record.key() instanceof Struct key) || key.schema().field(KEY_FIELD) == null) {
      throw new IllegalStateException(
          "A change record of "
              + record.topic()
              + " has no "
              + KEY_FIELD
              + " key: the broker pipeline captures tables keyed by "
              + KEY_FIELD
              + " only (the lab's orders table)");
    }
    long orderId = ((Number) key.get(KEY_FIELD)).longValue();
    byte[] keyBytes = keyConverter.fromConnectData(record.topic(), record.keySchema(), key);
    if (record.value() == null) {
      return new Encoded(keyBytes, null, orderId, null, null, false);
    }
    Struct value = (Struct) record.value();
    ChangeOp op = ChangeOp.ofCode(value.getString("op"));
    Struct source = value.getStruct("source");
    byte[] valueBytes = valueConverter.fromConnectData(record.topic(), record.valueSchema(), value);
    return new Encoded(keyBytes, valueBytes, orderId, op, position(value), isSnapshot(source));
  }

  /**
   * The ordered position of a change from Debezium's envelope. From a binlog connector's {@code
   * source} block: binlog file, {@code pos} (the byte offset of the binlog rows event that holds
   * the row) and {@code row} (the row's index inside that event), with the GTID as evidence. From
   * PostgreSQL's: no file, the change's {@code lsn}, and its order inside its transaction ({@code
   * transaction.total_order}, from 1; 0 for a snapshot read, which has no transaction). A later
   * change of one row has a greater LSN (its row lock orders the writers), so the LSN alone orders
   * each key's changes, also across interleaved transactions.
   */
  static SourcePosition position(Struct value) {
    Struct source = value.getStruct("source");
    if (hasField(source, "lsn")) {
      Object lsn = source.get("lsn");
      if (lsn == null) {
        throw new IllegalStateException("The source block of a PostgreSQL change has no lsn");
      }
      Struct transaction = hasField(value, "transaction") ? value.getStruct("transaction") : null;
      Object order = transaction == null ? null : transaction.get("total_order");
      return SourcePosition.of(
          "", ((Number) lsn).longValue(), order == null ? 0 : ((Number) order).intValue());
    }
    String file = source.getString("file");
    Object pos = source.get("pos");
    Object row = source.get("row");
    if (file == null || pos == null) {
      throw new IllegalStateException(
          "The source block has no binlog file or position; a binlog connector was expected");
    }
    String gtid = hasField(source, "gtid") ? source.getString("gtid") : null;
    return new SourcePosition(
        file, ((Number) pos).longValue(), row == null ? 0 : ((Number) row).intValue(), gtid);
  }

  /** Debezium marks snapshot reads {@code true}, {@code first}, {@code last}, ...; else false. */
  static boolean isSnapshot(Struct source) {
    if (!hasField(source, "snapshot")) {
      return false;
    }
    Object snapshot = source.get("snapshot");
    return snapshot != null && !"false".equals(snapshot.toString());
  }

  /** The poison value: the invalid UTF-8 prefix followed by the original bytes. */
  static byte[] corrupt(byte[] value) {
    byte[] corrupted = new byte[POISON_PREFIX.length + value.length];
    System.arraycopy(POISON_PREFIX, 0, corrupted, 0, POISON_PREFIX.length);
    System.arraycopy(value, 0, corrupted, POISON_PREFIX.length, value.length);
    return corrupted;
  }

  static String sha256Hex(byte[] bytes) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing from this JVM", e);
    }
  }

  private static boolean hasField(Struct struct, String name) {
    Field field = struct.schema().field(name);
    return field != null;
  }
}
