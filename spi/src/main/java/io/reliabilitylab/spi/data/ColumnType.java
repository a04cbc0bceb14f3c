package io.reliabilitylab.spi.data;

import static org.apiguardian.api.API.Status.STABLE;

import java.math.BigDecimal;
import java.time.Instant;
import org.apiguardian.api.API;

/** The column types a reconciled table may have, each with its one Java value type. */
@API(status = STABLE)
public enum ColumnType {
  BIGINT(Long.class),
  INT(Integer.class),
  VARCHAR(String.class),
  BOOLEAN(Boolean.class),
  DOUBLE(Double.class),
  DECIMAL(BigDecimal.class),
  /**
   * An instant on the UTC time line, kept to the microsecond (MySQL TIMESTAMP, Iceberg
   * timestamptz).
   */
  TIMESTAMP(Instant.class);

  private final Class<?> javaType;

  ColumnType(Class<?> javaType) {
    this.javaType = javaType;
  }

  /** The Java type every non-null value of this column has. */
  public Class<?> javaType() {
    return javaType;
  }
}
