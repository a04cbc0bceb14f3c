package io.reliabilitylab.spi.data;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/**
 * What a reader of a sink table may see between two commits, as the pipeline claims it: the
 * reader's-view check judges every commit against the claim. A claim stronger than the pipeline
 * keeps fails faithful runs; one weaker lets a torn commit pass.
 */
@API(status = EXPERIMENTAL)
public enum CommitConsistency {
  /**
   * Each commit shows, key by key, a state the source held, in order; keys may be at different
   * points of the source's log (a broker's partitions are read independently).
   */
  PER_KEY,
  /**
   * Each commit shows the source as it was after one prefix of its change log: one ordered stream
   * cut by checkpoints, so a commit may end inside a source transaction but never shows a change of
   * a later transaction without every change of the earlier ones. Which part of its last
   * transaction a commit holds is not judged: the order of a transaction's changes to different
   * keys is the database's.
   */
  CHANGE_PREFIX,
  /**
   * Each commit shows the source as it was after one prefix of its committed transactions: a commit
   * never holds part of a transaction (the changes of one transaction share their position's log
   * and offset).
   */
  TRANSACTION_PREFIX
}
