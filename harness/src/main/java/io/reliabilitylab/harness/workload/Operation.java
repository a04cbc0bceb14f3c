package io.reliabilitylab.harness.workload;

/**
 * The kinds of change a generator asks for; the simplest first, which is where jqwik shrinks to.
 */
enum Operation {
  INSERT,
  UPDATE,
  DELETE,
  PRIMARY_KEY_UPDATE,
  REINSERT
}
