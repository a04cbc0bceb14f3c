package io.reliabilitylab.workload;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.Objects;
import org.apiguardian.api.API;

/**
 * A commit during which the workload writer lost its connection (a crashed or restarted server, a
 * cut link), and what the database said on a new one: whether that commit had taken effect. The
 * oracle follows the database, so a commit that had taken effect is not written again.
 *
 * @param transactions which transactions the lost commit held, e.g. {@code transactions 231-233}
 * @param failure the first line of the error that lost the connection
 * @param committed whether the database had committed them before the connection went
 */
@API(status = EXPERIMENTAL)
public record WriterReconnection(String transactions, String failure, boolean committed) {

  public WriterReconnection {
    Objects.requireNonNull(transactions, "transactions");
    Objects.requireNonNull(failure, "failure");
  }

  /** One line for a record: what was lost, why, and what the database said. */
  public String describe() {
    return transactions
        + " lost the connection ("
        + failure
        + "); on a new one the database "
        + (committed
            ? "had committed them, so they were not written again"
            : "had not committed them, so they were written again");
  }
}
