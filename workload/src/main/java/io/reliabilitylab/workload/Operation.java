package io.reliabilitylab.workload;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/**
 * The kinds of change a generator asks for; the simplest first, which is where jqwik shrinks to.
 */
@API(status = EXPERIMENTAL)
public enum Operation {
  INSERT,
  UPDATE,
  DELETE,
  PRIMARY_KEY_UPDATE,
  REINSERT
}
