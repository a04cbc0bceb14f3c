package io.reliabilitylab.workload;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.reliabilitylab.spi.data.CanonicalForm;
import io.reliabilitylab.spi.data.Row;
import io.reliabilitylab.spi.data.TableSchema;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;
import java.util.OptionalLong;
import org.apiguardian.api.API;

/**
 * An immutable sequence of source transactions on the {@code orders} table, with the rows the table
 * holds before the first of them.
 *
 * @param config the config the workload was generated from (for a workload built by {@link
 *     Workloads}, seed 0 and its change count)
 * @param initialRows rows present before the first transaction, in key order
 * @param transactions the transactions, in commit order
 */
@API(status = EXPERIMENTAL)
public record Workload(
    WorkloadConfig config, List<Row> initialRows, List<SourceTransaction> transactions) {

  /** Names the canonical text format; bump it when the text changes, so old digests never match. */
  private static final String FORMAT = "reliability-lab workload v1";

  public Workload {
    Objects.requireNonNull(config, "config");
    initialRows = List.copyOf(initialRows);
    transactions = List.copyOf(transactions);
  }

  /** The schema of every row image: {@link TableSchema#ORDERS}. */
  public TableSchema schema() {
    return TableSchema.ORDERS;
  }

  /** How many row changes the transactions make; a primary-key update counts once. */
  public long changeCount() {
    long count = 0;
    for (SourceTransaction transaction : transactions) {
      count += transaction.changes().size();
    }
    return count;
  }

  /** The largest event id any initial row or change writes, if any writes one. */
  public OptionalLong lastEventId() {
    long last = Long.MIN_VALUE;
    for (Row row : initialRows) {
      last = Math.max(last, Objects.requireNonNull(row.eventId()));
    }
    for (SourceTransaction transaction : transactions) {
      for (SourceChange change : transaction.changes()) {
        Long written = change.writtenEventId();
        if (written != null) {
          last = Math.max(last, written);
        }
      }
    }
    return last == Long.MIN_VALUE ? OptionalLong.empty() : OptionalLong.of(last);
  }

  /** The same initial rows and the first {@code count} transactions. */
  public Workload prefix(int count) {
    if (count < 0 || count > transactions.size()) {
      throw new IllegalArgumentException(
          "A prefix of "
              + count
              + " transactions is out of range: the workload has "
              + transactions.size());
    }
    return new Workload(config, initialRows, transactions.subList(0, count));
  }

  /**
   * SHA-256, as lower-case hex, of the workload's canonical text: a format line, one line per
   * initial row, then per transaction a line with its ordinal and commit time followed by one line
   * per row image ({@code insert}, {@code update-before}, {@code update-after}, {@code delete}),
   * each image in {@link CanonicalForm}. The same workload has the same digest on every machine,
   * JVM and default time zone.
   */
  public String digest() {
    MessageDigest digest = CanonicalForm.newSha256();
    feed(digest, FORMAT + "\n");
    for (Row row : initialRows) {
      feed(digest, "initial\t" + CanonicalForm.line(row));
    }
    for (SourceTransaction transaction : transactions) {
      feed(
          digest,
          "transaction\t"
              + transaction.ordinal()
              + "\t"
              + CanonicalForm.value(transaction.commitTime())
              + "\n");
      for (SourceChange change : transaction.changes()) {
        if (change instanceof SourceChange.Insert insert) {
          feed(digest, "insert\t" + CanonicalForm.line(insert.after()));
        } else if (change instanceof SourceChange.Update update) {
          feed(digest, "update-before\t" + CanonicalForm.line(update.before()));
          feed(digest, "update-after\t" + CanonicalForm.line(update.after()));
        } else if (change instanceof SourceChange.Delete delete) {
          feed(digest, "delete\t" + CanonicalForm.line(delete.before()));
        }
      }
    }
    return HexFormat.of().formatHex(digest.digest());
  }

  private static void feed(MessageDigest digest, String text) {
    digest.update(text.getBytes(StandardCharsets.UTF_8));
  }

  @Override
  public String toString() {
    return "Workload[seed="
        + config.seed()
        + ", initialRows="
        + initialRows.size()
        + ", transactions="
        + transactions.size()
        + ", changes="
        + changeCount()
        + "]";
  }
}
