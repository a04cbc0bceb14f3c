package io.reliabilitylab.pipeline.direct;

import static org.assertj.core.api.Assertions.assertThat;

import io.reliabilitylab.record.RunRecord;
import io.reliabilitylab.spi.check.CheckResult;
import java.util.List;

/** What the pipeline's suite tests read in a run record's checks. */
public final class RunRecordChecks {

  private RunRecordChecks() {}

  /** The one result of check {@code name} in {@code run}. */
  public static CheckResult check(RunRecord run, String name) {
    List<CheckResult> found = run.checks().stream().filter(c -> c.check().equals(name)).toList();
    assertThat(found).as("check %s in %s", name, run.checks()).hasSize(1);
    return found.get(0);
  }

  /** Asserts that {@code run}'s {@code event-id-audit} names, by event id, changes held twice. */
  public static void assertDuplicatedEventIds(RunRecord run) {
    assertThat(check(run, "event-id-audit").evidence().samples())
        .as("%s: the event ids committed twice", run.scenario().name())
        .filteredOn(sample -> sample.kind().equals("duplicate"))
        .isNotEmpty()
        .allSatisfy(sample -> assertThat(sample.subject()).startsWith("event_id="));
  }
}
