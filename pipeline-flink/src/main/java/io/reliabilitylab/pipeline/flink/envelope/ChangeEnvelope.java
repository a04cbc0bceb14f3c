package io.reliabilitylab.pipeline.flink.envelope;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.io.Serializable;
import java.util.Objects;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * One source change envelope as Debezium reports it: the operation, the row images and where the
 * change sits in the binlog. A Flink POJO (a record), so Flink serializes it without Kryo.
 *
 * @param op Debezium's operation code: {@code r} (snapshot read), {@code c}, {@code u} or {@code d}
 * @param before the row before the change ({@code u}, {@code d})
 * @param after the row after the change ({@code r}, {@code c}, {@code u})
 * @param binlogFile the binlog file of the change's event ({@code ""} when the source gives none)
 * @param binlogPos the offset of the change's event in that file
 * @param rowIndex the index of the row inside that event, so that rows of one event stay distinct
 * @param gtid the transaction's GTID, if the server reports one
 * @param sourceTsMillis the server's timestamp of the change, milliseconds since the epoch
 * @param transaction the source transaction the change belongs to, as the connector's offset names
 *     it ({@code mysql-bin.000003:4711}: where the transaction starts); {@code ""} for a snapshot
 *     read or when the source gives none
 */
@API(status = EXPERIMENTAL)
public record ChangeEnvelope(
    String op,
    @Nullable OrderImage before,
    @Nullable OrderImage after,
    String binlogFile,
    long binlogPos,
    int rowIndex,
    @Nullable String gtid,
    long sourceTsMillis,
    String transaction)
    implements Serializable {

  /**
   * The operation of a {@linkplain #fence fence}: not a change of the table, a mark in the
   * change-log's order that every transaction before it is complete.
   */
  public static final String FENCE = "fence";

  public ChangeEnvelope {
    Objects.requireNonNull(op, "op");
    Objects.requireNonNull(binlogFile, "binlogFile");
    Objects.requireNonNull(transaction, "transaction");
  }

  /** An envelope whose transaction the source does not name. */
  public ChangeEnvelope(
      String op,
      @Nullable OrderImage before,
      @Nullable OrderImage after,
      String binlogFile,
      long binlogPos,
      int rowIndex,
      @Nullable String gtid,
      long sourceTsMillis) {
    this(op, before, after, binlogFile, binlogPos, rowIndex, gtid, sourceTsMillis, "");
  }

  /**
   * A fence read from the change log at {@code binlogFile:binlogPos}: a change of another table,
   * written after every transaction the log holds before it; carries no row and never reaches a
   * sink.
   */
  public static ChangeEnvelope fence(String binlogFile, long binlogPos, long sourceTsMillis) {
    return new ChangeEnvelope(FENCE, null, null, binlogFile, binlogPos, 0, null, sourceTsMillis);
  }

  /** Whether this is a {@linkplain #fence fence}, not a change of the table. */
  public boolean isFence() {
    return FENCE.equals(op);
  }

  /** The image a changelog row carries: the after image, or the before image of a delete. */
  public OrderImage image() {
    OrderImage image = "d".equals(op) ? before : after;
    if (image == null) {
      throw new IllegalStateException(
          "Change envelope '" + op + "' at " + binlogFile + ":" + binlogPos + " has no row image");
    }
    return image;
  }

  /** The envelope's event id: the after image's, or for a delete the deleted row's. */
  public @Nullable Long eventId() {
    return image().eventId();
  }

  /**
   * The event id of the replaced row: for {@code u} and {@code d}; none for {@code r}, {@code c}.
   */
  public @Nullable Long beforeEventId() {
    return switch (op) {
      case "u", "d" -> before == null ? null : before.eventId();
      default -> null;
    };
  }
}
