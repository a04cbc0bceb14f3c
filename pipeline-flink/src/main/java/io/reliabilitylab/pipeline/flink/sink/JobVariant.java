package io.reliabilitylab.pipeline.flink.sink;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.Arrays;
import java.util.Locale;
import java.util.Objects;
import java.util.stream.Collectors;
import org.apiguardian.api.API;

/**
 * Which reference job runs: the faithful one, or a deliberately broken one the lab must catch (its
 * negative controls). Chosen with the pipeline option {@value #OPTION}.
 */
@API(status = EXPERIMENTAL)
public enum JobVariant {
  /** The reference job: both sinks commit on Flink's checkpoints. */
  FAITHFUL("faithful"),
  /**
   * BROKEN: the current table is written in append mode, not upsert, and its deletes and
   * update-befores are dropped: an update leaves the old row in place and a delete is lost
   * (duplicate keys, stale rows), with or without faults.
   */
  BROKEN_CURRENT_APPEND("broken-current-append"),
  /**
   * BROKEN: the current table's sink commits each checkpoint's equality deletes in a snapshot of
   * their own, ahead of the rows that replace them ({@link
   * io.reliabilitylab.pipeline.flink.sink.broken.SplitCommitTableLoader}): the table after each
   * checkpoint is right, but between the two snapshots every key the checkpoint updated is missing.
   * With or without faults; only a check of every snapshot ({@code reader-view}) sees it.
   */
  BROKEN_CURRENT_SPLIT_COMMIT("broken-current-split-commit"),
  /**
   * BROKEN: the changelog's sink commits each checkpoint's files when it completes, keeps the last
   * committed checkpoint's files in its state, and after a restore commits everything its state
   * holds without asking the table what it has ({@link
   * io.reliabilitylab.pipeline.flink.sink.broken.AtLeastOnceChangelogSink}): at-least-once,
   * claiming exactly-once. Faithful without faults; after a restart while changes flow, changes
   * committed before the failure are in the changelog twice.
   */
  BROKEN_CHANGELOG_AT_LEAST_ONCE("broken-changelog-at-least-once"),
  /**
   * BROKEN: the source operator gets a new uid each time the job is built, and state that maps to
   * no operator is dropped ({@code execution.savepoint.ignore-unclaimed-state}): faithful without
   * faults and across failovers of one job; a job restored from a savepoint or retained checkpoint
   * starts its source afresh, re-reading the table as a snapshot instead of resuming from its
   * position. The direct pipeline's source only.
   */
  BROKEN_SOURCE_NOT_RESTORED("broken-source-not-restored"),
  /**
   * BROKEN: the binlog client's keep-alive is off, so the reader never notices a connection the
   * network or the server dropped and never reconnects: faithful without faults; after a source
   * crash or a reset connection the job runs on and reads nothing more. The direct pipeline on
   * MySQL/MariaDB only.
   */
  BROKEN_SOURCE_NO_RECONNECT("broken-source-no-reconnect"),
  /**
   * BROKEN: the PostgreSQL source confirms to its slot what its reader has read (every 100 ms and
   * at every completed checkpoint), not what a checkpoint stored — Flink CDC's behaviour before
   * apache/flink-cdc#2539, which 3.5.0 keeps for checkpoints taken before the reader had the stream
   * split. A restore then asks for a position the slot was confirmed past; PostgreSQL starts at the
   * slot's and the changes read since the checkpoint are lost. Faithful without faults. The direct
   * pipeline on PostgreSQL only.
   */
  BROKEN_SOURCE_COMMITS_READ_POSITION("broken-source-commits-read-position"),
  /**
   * BROKEN: the broker job's replay deduplication drops a change only when it repeats its key's
   * last forwarded position (equality where an order was needed): faithful without redeliveries;
   * when the connector delivers older changes again they pass through. The broker pipeline only.
   */
  BROKEN_DEDUP_LAST_ONLY("broken-dedup-last-only"),
  /**
   * BROKEN: the broker job drops a record it cannot decode instead of quarantining it, as a format
   * told to ignore parse errors does (Flink's {@code json.ignore-parse-errors}, Kafka Connect's
   * {@code errors.tolerance=all} without a dead-letter queue): faithful while every record decodes;
   * a poison message's change is lost, with no dead letter to repair it from. The broker pipeline
   * only.
   */
  BROKEN_UNDECODABLE_SKIPPED("broken-undecodable-skipped"),
  /**
   * BROKEN: the broker job fails on a record it cannot decode instead of quarantining it, as a
   * format without {@code ignore-parse-errors} does (Flink's JSON format by default): faithful
   * while every record decodes; a poison message fails the job at every restart, which never gets
   * past it. The broker pipeline only.
   */
  BROKEN_UNDECODABLE_FAILS("broken-undecodable-fails"),
  /**
   * BROKEN: the broker pipeline's connector publishes at most once: a change the broker does not
   * acknowledge within a second is logged and dropped, and the connector goes on past it (a send
   * error handler that logs and moves on). Faithful while the broker answers; the changes read
   * while the broker restarts are lost. The broker pipeline only.
   */
  BROKEN_PUBLISHER_DROPS_UNACKNOWLEDGED("broken-publisher-drops-unacknowledged"),
  /**
   * BROKEN: the broker pipeline's connector resends a produce request it stopped waiting for
   * (idempotence off, retries on, a 1.5 s request timeout) and the job keeps no replay
   * deduplication, trusting each change to arrive once: at least once, and the pipeline claims
   * exactly once. Faithful while the broker answers within the timeout; a slow, throttled or frozen
   * link to it lands the changes of a request twice, since the request the connector gave up on
   * still arrives. The broker pipeline only.
   */
  BROKEN_PUBLISHER_RESENDS("broken-publisher-resends"),
  /**
   * BROKEN: the current table's sink commits each checkpoint one writer at a time, each writer's
   * files in a snapshot of their own ({@link
   * io.reliabilitylab.pipeline.flink.sink.broken.SplitCommitTableLoader.Split#ONE_WRITER_AT_A_TIME},
   * a committer per writer): the table after each checkpoint is right and every key passes through
   * states the source held, but between the snapshots the keys of one writer are ahead of the
   * others': a commit holds part of a source transaction, and no prefix of the source's changes.
   * With or without faults; only a check of every commit against the job's claim sees it.
   */
  BROKEN_CURRENT_COMMIT_PER_WRITER("broken-current-commit-per-writer");

  /** The pipeline option that chooses the variant. */
  public static final String OPTION = "job.variant";

  private final String text;

  JobVariant(String text) {
    this.text = text;
  }

  /** The option's text form, e.g. {@code broken-current-append}. */
  public String text() {
    return text;
  }

  /** Whether this is a negative control. */
  public boolean broken() {
    return this != FAITHFUL;
  }

  /** Reads the text form; a bad input's message lists the variants. */
  public static JobVariant parse(String text) {
    Objects.requireNonNull(text, "text");
    String wanted = text.strip().toLowerCase(Locale.ROOT);
    for (JobVariant variant : values()) {
      if (variant.text.equals(wanted)) {
        return variant;
      }
    }
    throw new IllegalArgumentException(
        "Unknown "
            + OPTION
            + " '"
            + text
            + "'; use one of "
            + Arrays.stream(values()).map(JobVariant::text).collect(Collectors.joining(", ")));
  }
}
