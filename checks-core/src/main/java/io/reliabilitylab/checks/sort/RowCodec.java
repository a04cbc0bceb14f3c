package io.reliabilitylab.checks.sort;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.reliabilitylab.spi.data.ColumnType;
import io.reliabilitylab.spi.data.Row;
import io.reliabilitylab.spi.data.TableSchema;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * The spill format of a {@link Row}: per column one type tag byte ({@code 0} for null, else the
 * column type's ordinal plus one) and the value. The schema stays in memory, out of the file; a tag
 * that does not match the schema is reported as a corrupt spill file.
 *
 * <p>Not thread-safe: it reuses one scratch buffer for text.
 */
@API(status = EXPERIMENTAL)
public final class RowCodec implements RecordCodec<Row> {

  private static final int NULL_TAG = 0;

  private final TableSchema schema;
  private final ColumnType[] types;
  private byte[] scratch = new byte[256];

  private RowCodec(TableSchema schema) {
    this.schema = schema;
    this.types = schema.columns().stream().map(c -> c.type()).toArray(ColumnType[]::new);
  }

  /** A codec for rows of this schema. */
  public static RowCodec of(TableSchema schema) {
    return new RowCodec(Objects.requireNonNull(schema, "schema"));
  }

  /** The schema of the rows this codec reads. */
  public TableSchema schema() {
    return schema;
  }

  @Override
  public void write(DataOutput out, Row row) throws IOException {
    List<@Nullable Object> values = row.values();
    if (values.size() != types.length) {
      throw new IllegalArgumentException(
          "Row of table "
              + row.schema().name()
              + " has "
              + values.size()
              + " values; this codec writes "
              + schema.name()
              + " rows of "
              + types.length);
    }
    for (int i = 0; i < types.length; i++) {
      Object value = values.get(i);
      if (value == null) {
        out.writeByte(NULL_TAG);
        continue;
      }
      ColumnType type = types[i];
      out.writeByte(type.ordinal() + 1);
      switch (type) {
        case BIGINT -> out.writeLong((Long) value);
        case INT -> out.writeInt((Integer) value);
        case VARCHAR -> writeText(out, (String) value);
        case BOOLEAN -> out.writeBoolean((Boolean) value);
        case DOUBLE -> out.writeDouble((Double) value);
        case DECIMAL -> {
          BigDecimal decimal = (BigDecimal) value;
          out.writeInt(decimal.scale());
          byte[] unscaled = decimal.unscaledValue().toByteArray();
          out.writeInt(unscaled.length);
          out.write(unscaled);
        }
        case TIMESTAMP -> {
          Instant instant = (Instant) value;
          out.writeLong(instant.getEpochSecond());
          out.writeInt(instant.getNano());
        }
      }
    }
  }

  @Override
  public Row read(DataInput in) throws IOException {
    @Nullable Object[] values = new Object[types.length];
    for (int i = 0; i < types.length; i++) {
      int tag = in.readUnsignedByte();
      if (tag == NULL_TAG) {
        continue;
      }
      ColumnType type = types[i];
      if (tag != type.ordinal() + 1) {
        throw new IOException(
            "Corrupt spill file: column "
                + schema.columns().get(i).name()
                + " of "
                + schema.name()
                + " should have type tag "
                + (type.ordinal() + 1)
                + " but has "
                + tag);
      }
      values[i] =
          switch (type) {
            case BIGINT -> in.readLong();
            case INT -> in.readInt();
            case VARCHAR -> readText(in);
            case BOOLEAN -> in.readBoolean();
            case DOUBLE -> in.readDouble();
            case DECIMAL -> {
              int scale = in.readInt();
              byte[] unscaled = new byte[in.readInt()];
              in.readFully(unscaled);
              yield new BigDecimal(new BigInteger(unscaled), scale);
            }
            case TIMESTAMP -> Instant.ofEpochSecond(in.readLong(), in.readInt());
          };
    }
    return new Row(schema, Arrays.asList(values));
  }

  static void writeText(DataOutput out, String text) throws IOException {
    byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
    out.writeInt(bytes.length);
    out.write(bytes);
  }

  private String readText(DataInput in) throws IOException {
    int length = in.readInt();
    if (length < 0) {
      throw new IOException("Corrupt spill file: negative text length " + length);
    }
    if (scratch.length < length) {
      scratch = new byte[Math.max(length, scratch.length * 2)];
    }
    in.readFully(scratch, 0, length);
    return new String(scratch, 0, length, StandardCharsets.UTF_8);
  }

  static String readTextOnce(DataInput in) throws IOException {
    byte[] bytes = new byte[in.readInt()];
    in.readFully(bytes);
    return new String(bytes, StandardCharsets.UTF_8);
  }
}
