package io.reliabilitylab.checks.sort;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.reliabilitylab.spi.data.ChangeEvent;
import io.reliabilitylab.spi.data.ChangeOp;
import io.reliabilitylab.spi.data.SourcePosition;
import io.reliabilitylab.spi.data.TableSchema;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.time.Instant;
import java.util.Objects;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * The spill format of a {@link ChangeEvent}: op, ids, the row image in {@link RowCodec}'s format,
 * the source position and the source timestamp.
 *
 * <p>Not thread-safe, like {@link RowCodec}.
 */
@API(status = EXPERIMENTAL)
public final class ChangeEventCodec implements RecordCodec<ChangeEvent> {

  private static final ChangeOp[] OPS = ChangeOp.values();

  private final RowCodec rows;
  private @Nullable String lastLog;

  private ChangeEventCodec(RowCodec rows) {
    this.rows = rows;
  }

  /** A codec for events whose row images have this schema. */
  public static ChangeEventCodec of(TableSchema schema) {
    return new ChangeEventCodec(RowCodec.of(Objects.requireNonNull(schema, "schema")));
  }

  @Override
  public void write(DataOutput out, ChangeEvent event) throws IOException {
    out.writeByte(event.op().ordinal());
    out.writeLong(event.eventId());
    Long before = event.beforeEventId();
    out.writeBoolean(before != null);
    if (before != null) {
      out.writeLong(before);
    }
    rows.write(out, event.row());
    SourcePosition position = event.position();
    RowCodec.writeText(out, position.log());
    out.writeLong(position.offset());
    out.writeInt(position.rowIndex());
    String gtid = position.gtid();
    out.writeBoolean(gtid != null);
    if (gtid != null) {
      RowCodec.writeText(out, gtid);
    }
    out.writeLong(event.sourceTimestamp().getEpochSecond());
    out.writeInt(event.sourceTimestamp().getNano());
  }

  @Override
  public ChangeEvent read(DataInput in) throws IOException {
    int opIndex = in.readUnsignedByte();
    if (opIndex >= OPS.length) {
      throw new IOException("Corrupt spill file: unknown change operation index " + opIndex);
    }
    ChangeOp op = OPS[opIndex];
    long eventId = in.readLong();
    Long before = in.readBoolean() ? in.readLong() : null;
    var row = rows.read(in);
    String log = RowCodec.readTextOnce(in);
    // Consecutive events mostly share one log file name: keep one String for it.
    if (log.equals(lastLog)) {
      log = lastLog;
    } else {
      lastLog = log;
    }
    long offset = in.readLong();
    int rowIndex = in.readInt();
    String gtid = in.readBoolean() ? RowCodec.readTextOnce(in) : null;
    Instant timestamp = Instant.ofEpochSecond(in.readLong(), in.readInt());
    return new ChangeEvent(
        op, eventId, before, row, new SourcePosition(log, offset, rowIndex, gtid), timestamp);
  }
}
