package io.reliabilitylab.spi.data;

import static org.apiguardian.api.API.Status.STABLE;

import org.apiguardian.api.API;

/** The operation of a change envelope, with Debezium's one-letter codes. */
@API(status = STABLE)
public enum ChangeOp {
  /** A row read during the snapshot phase. */
  READ("r"),
  CREATE("c"),
  /** One update envelope: a Flink {@code -U}/{@code +U} pair is one {@code u}. */
  UPDATE("u"),
  DELETE("d");

  private final String code;

  ChangeOp(String code) {
    this.code = code;
  }

  /** The one-letter code: r, c, u or d. */
  public String code() {
    return code;
  }

  /** The operation for a one-letter code. */
  public static ChangeOp ofCode(String code) {
    for (ChangeOp op : values()) {
      if (op.code.equals(code)) {
        return op;
      }
    }
    throw new IllegalArgumentException(
        "Unknown change operation '" + code + "'; known: r, c, u, d");
  }
}
