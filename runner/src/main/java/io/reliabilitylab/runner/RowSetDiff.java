package io.reliabilitylab.runner;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.reliabilitylab.checks.SnapshotDiffCheck;
import io.reliabilitylab.spi.check.CheckContext;
import io.reliabilitylab.spi.check.CheckResult;
import io.reliabilitylab.spi.data.DeliverySemantics;
import io.reliabilitylab.spi.data.RowSet;
import java.nio.file.Path;
import org.apiguardian.api.API;

/**
 * Compares two row sets with the {@code snapshot-diff} check, outside a scenario's final checks:
 * the source against the oracle, a rewritten snapshot against its parent, a bench's sink against
 * its source.
 */
@API(status = INTERNAL)
public final class RowSetDiff {

  private RowSetDiff() {}

  /** The {@code snapshot-diff} result of {@code actual} against {@code expected}. */
  public static CheckResult of(
      DeliverySemantics semantics, RowSet expected, RowSet actual, Path workDirectory) {
    return new SnapshotDiffCheck()
        .check(
            CheckContext.builder(semantics)
                .expectedCurrent(expected)
                .actualCurrent(actual)
                .workDirectory(workDirectory)
                .build());
  }
}
