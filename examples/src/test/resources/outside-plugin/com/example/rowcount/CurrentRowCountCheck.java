package com.example.rowcount;

import io.reliabilitylab.spi.check.CheckContext;
import io.reliabilitylab.spi.check.CheckResult;
import io.reliabilitylab.spi.check.Evidence;
import io.reliabilitylab.spi.check.ReconciliationCheck;
import io.reliabilitylab.spi.data.CloseableIterator;
import io.reliabilitylab.spi.data.Row;
import io.reliabilitylab.spi.data.RowSet;

/**
 * A plugin written outside the lab's build: PluginDirectoryIT compiles this file against the
 * packaged lab's SPI jar at test time, jars it with its services file and drops the jar into the
 * plugins/ directory of a copy of reliability-lab.jar. It is not compiled by Maven (it is a test
 * resource), so that nothing of it is on any class path but its jar's.
 */
public final class CurrentRowCountCheck implements ReconciliationCheck {

  @Override
  public String name() {
    return "current-row-count";
  }

  @Override
  public String description() {
    return "The current table holds as many rows as the source (a plugin from plugins/).";
  }

  @Override
  public CheckResult check(CheckContext context) {
    if (context.expectedCurrent().isEmpty()) {
      return CheckResult.missingInput(name(), "expected current rows");
    }
    if (context.actualCurrent().isEmpty()) {
      return CheckResult.missingInput(name(), "actual current rows");
    }
    long expected = count(context.expectedCurrent().get());
    long actual = count(context.actualCurrent().get());
    Evidence evidence =
        Evidence.builder().count("expected_rows", expected).count("actual_rows", actual).build();
    String summary = expected + " rows expected, " + actual + " found";
    return expected == actual
        ? CheckResult.passed(name(), summary, evidence)
        : CheckResult.failed(name(), summary, evidence);
  }

  private static long count(RowSet rows) {
    long count = 0;
    try (CloseableIterator<Row> iterator = rows.open()) {
      while (iterator.hasNext()) {
        iterator.next();
        count++;
      }
    }
    return count;
  }
}
