package io.reliabilitylab.testkit;

import com.google.auto.service.AutoService;
import io.reliabilitylab.spi.check.CheckContext;
import io.reliabilitylab.spi.check.CheckResult;
import io.reliabilitylab.spi.check.Evidence;
import io.reliabilitylab.spi.check.EvidenceSample;
import io.reliabilitylab.spi.check.ReconciliationCheck;
import io.reliabilitylab.spi.data.CloseableIterator;
import io.reliabilitylab.spi.data.Row;
import io.reliabilitylab.spi.data.RowKey;
import io.reliabilitylab.spi.data.RowSet;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** A small, honest check for the kit's own tests: the actual current table equals the expected. */
@AutoService(ReconciliationCheck.class)
public final class SampleCurrentTableCheck implements ReconciliationCheck {

  @Override
  public String name() {
    return "sample-current-table";
  }

  @Override
  public String description() {
    return "The actual current table holds exactly the expected rows (testkit sample)";
  }

  @Override
  public CheckResult check(CheckContext context) {
    if (context.expectedCurrent().isEmpty()) {
      return CheckResult.missingInput(name(), "expected current table");
    }
    if (context.actualCurrent().isEmpty()) {
      return CheckResult.missingInput(name(), "actual current table");
    }
    Map<RowKey, Row> expected = byKey(context.expectedCurrent().get());
    Evidence.Builder evidence = Evidence.builder(context.sampleLimit());
    Map<RowKey, Row> actual = new TreeMap<>();
    try (CloseableIterator<Row> rows = context.actualCurrent().get().open()) {
      while (rows.hasNext()) {
        Row row = rows.next();
        if (actual.put(row.key(), row) != null) {
          evidence.increment("duplicate_keys");
          evidence.sample(EvidenceSample.of("duplicate", "key=" + row.key(), "key held twice"));
        }
      }
    }
    for (Map.Entry<RowKey, Row> entry : expected.entrySet()) {
      Row found = actual.get(entry.getKey());
      if (found == null) {
        evidence.increment("missing");
        evidence.sample(EvidenceSample.of("missing", "key=" + entry.getKey(), "not in actual"));
      } else if (!found.equals(entry.getValue())) {
        evidence.increment("mismatched");
        List<String> columns = entry.getValue().differingColumns(found);
        evidence.sample(
            new EvidenceSample(
                "mismatched",
                "key=" + entry.getKey(),
                entry.getValue().toCanonicalMap(),
                found.toCanonicalMap(),
                columns,
                "differs in " + columns));
      }
    }
    for (RowKey key : actual.keySet()) {
      if (!expected.containsKey(key)) {
        evidence.increment("unexpected");
        evidence.sample(EvidenceSample.of("unexpected", "key=" + key, "not expected"));
      }
    }
    Evidence built = evidence.count("expected_rows", expected.size()).build();
    long defects =
        built.count("missing")
            + built.count("unexpected")
            + built.count("mismatched")
            + built.count("duplicate_keys");
    return defects == 0
        ? CheckResult.passed(name(), "current table matches", built)
        : CheckResult.failed(name(), defects + " rows differ", built);
  }

  private static Map<RowKey, Row> byKey(RowSet set) {
    Map<RowKey, Row> rows = new TreeMap<>();
    try (CloseableIterator<Row> iterator = set.open()) {
      iterator.forEachRemaining(row -> rows.put(row.key(), row));
    }
    return rows;
  }
}
