package io.reliabilitylab.junit;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.reliabilitylab.record.RunRecord;
import org.apiguardian.api.API;

/**
 * AssertJ assertions on run records: the verdict, each fault's proof and recovery, each check.
 *
 * <pre>{@code
 * import static io.reliabilitylab.junit.LabAssertions.assertThat;
 *
 * assertThat(run).passed().fault("task-failure").fired().recoveredWithin(ofSeconds(5));
 * assertThat(run).check("changelog-completeness").passed();
 * assertThat(run).snapshotDiff(0);
 * }</pre>
 *
 * A failing assertion shows the record's verdict, its reasons, and every check and fault.
 */
@API(status = EXPERIMENTAL)
public final class LabAssertions {

  private LabAssertions() {}

  /** Assertions on one run's record. */
  public static RunRecordAssert assertThat(RunRecord run) {
    return new RunRecordAssert(run);
  }
}
