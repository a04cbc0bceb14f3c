package io.reliabilitylab.spi.data;

import static org.apiguardian.api.API.Status.STABLE;

import org.apiguardian.api.API;

/** The delivery guarantee a pipeline claims, which decides how duplicates are judged. */
@API(status = STABLE)
public enum DeliverySemantics {
  /** Every change reaches each table once: a duplicate in the changelog fails the run. */
  EXACTLY_ONCE,
  /**
   * Every change reaches each table at least once: changelog duplicates are counted and reported,
   * while the current table must still match the source exactly.
   */
  AT_LEAST_ONCE
}
