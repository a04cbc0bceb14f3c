package io.reliabilitylab.record;

import static org.assertj.core.api.Assertions.assertThat;

import io.reliabilitylab.spi.check.CheckResult;
import io.reliabilitylab.spi.check.Evidence;
import io.reliabilitylab.spi.check.Verdict;
import io.reliabilitylab.spi.fault.FaultEvidence;
import io.reliabilitylab.spi.fault.FaultPosition;
import io.reliabilitylab.spi.fault.FaultSpec;
import io.reliabilitylab.spi.fault.FaultStatus;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.From;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.LongRange;
import net.jqwik.api.constraints.Size;

/** Exercises survive the JSON round trip in their order; known hazards never hide a lab failure. */
class ExerciseRecordProperties {

  private static final Instant AT = SampleRecords.START;

  @Provide
  Arbitrary<String> names() {
    Arbitrary<String> first = Arbitraries.strings().withChars("abcxyz019").ofLength(1);
    Arbitrary<String> rest = Arbitraries.strings().withChars("abcxyz019:_-").ofMaxLength(12);
    return first.flatMap(head -> rest.map(tail -> head + tail));
  }

  @Provide
  Arbitrary<String> keys() {
    return Arbitraries.strings()
        .withChars("abxyzAZ09._:- ")
        .ofMinLength(1)
        .ofMaxLength(12)
        .filter(key -> !key.isBlank());
  }

  @Property
  void figuresFactsAndSeriesReadBackEqualAndInTheirOrder(
      @ForAll("names") String name,
      @ForAll @Size(max = 12) List<@From("keys") String> figureNames,
      @ForAll @Size(max = 12) List<Long> figureValues,
      @ForAll @Size(max = 6) List<@From("keys") String> factNames,
      @ForAll @Size(max = 20) List<@LongRange(min = 0, max = 3_600_000) Long> sampleTimes,
      @ForAll @LongRange(min = 0, max = 3_600_000) long tookMs)
      throws Exception {
    ExerciseRecord.Builder builder = ExerciseRecord.builder(name, AT);
    for (int i = 0; i < figureNames.size(); i++) {
      builder.figure(figureNames.get(i), i < figureValues.size() ? figureValues.get(i) : i);
    }
    factNames.forEach(fact -> builder.fact(fact, "value of " + fact));
    sampleTimes.forEach(atMs -> builder.point("lag_events", atMs, -atMs));
    ExerciseRecord record = builder.build(AT.plusMillis(tookMs));

    String json = RunRecordJson.mapper().writeValueAsString(record);
    ExerciseRecord readBack = RunRecordJson.mapper().readValue(json, ExerciseRecord.class);

    assertThat(readBack).isEqualTo(record);
    assertThat(new ArrayList<>(readBack.figures().keySet()))
        .containsExactlyElementsOf(figureNames.stream().distinct().toList());
    assertThat(new ArrayList<>(readBack.facts().keySet()))
        .containsExactlyElementsOf(factNames.stream().distinct().toList());
    assertThat(readBack.series())
        .extracting(ExerciseRecord.SeriesPoint::atMs)
        .isEqualTo(sampleTimes);
  }

  @Property
  void aKnownHazardCountsAsPassedOnlyWhenItsChecksAloneFailed(
      @ForAll @Size(max = 4) List<Verdict> checkVerdicts,
      @ForAll @Size(max = 3) List<FaultStatus> faultStatuses,
      @ForAll boolean stoppedByError,
      @ForAll boolean knownHazard) {
    List<CheckResult> checks = new ArrayList<>();
    for (int i = 0; i < checkVerdicts.size(); i++) {
      checks.add(check("check-" + i, checkVerdicts.get(i)));
    }
    List<FaultEvidence> faults = new ArrayList<>();
    for (int i = 0; i < faultStatuses.size(); i++) {
      faults.add(fault("f" + i, faultStatuses.get(i)));
    }
    Summary summary =
        stoppedByError
            ? Verdicts.aborted("the database went away", checks, faults, 0, 0)
            : Verdicts.summarize(checks, faults, 0, 0);
    String hazard = knownHazard ? SampleRecords.HAZARD : null;

    SuiteSummary.Entry entry =
        new SuiteSummary.Entry(
            SampleRecords.RUN_ID,
            "direct",
            "savepoint-restore",
            null,
            hazard,
            summary.verdict(),
            summary.exitCode(),
            SuiteSummary.Entry.outcome(summary, hazard),
            null,
            0);

    boolean onlyChecksFailed =
        checkVerdicts.contains(Verdict.FAILED)
            && !stoppedByError
            && faultStatuses.stream().allMatch(status -> status == FaultStatus.FIRED);
    assertThat(entry.knownHazardDetected()).isEqualTo(knownHazard && onlyChecksFailed);
    if (!knownHazard) {
      assertThat(entry.outcome()).isEqualTo(summary.verdict().name().toLowerCase(Locale.ROOT));
      assertThat(entry.countsAs()).isEqualTo(summary.exitCode());
    } else if (onlyChecksFailed) {
      assertThat(entry.countsAs()).isEqualTo(ExitCode.PASSED);
    } else if (summary.passed()) {
      assertThat(entry.outcome()).isEqualTo("known-hazard-not-reproduced");
      assertThat(entry.countsAs()).isEqualTo(ExitCode.INCONCLUSIVE);
    } else {
      assertThat(entry.countsAs()).isEqualTo(summary.exitCode());
    }
    // An unproven fault or an error is a lab failure whatever the hazard: it never counts as
    // passed.
    if (stoppedByError || faultStatuses.stream().anyMatch(status -> status != FaultStatus.FIRED)) {
      assertThat(entry.countsAs()).isNotEqualTo(ExitCode.PASSED);
    }
  }

  private static CheckResult check(String name, Verdict verdict) {
    return switch (verdict) {
      case PASSED -> CheckResult.passed(name, "ok", Evidence.NONE);
      case FAILED -> CheckResult.failed(name, "3 rows lost", Evidence.NONE);
      case INCONCLUSIVE -> CheckResult.missingInput(name, "orders_current");
    };
  }

  private static FaultEvidence fault(String id, FaultStatus status) {
    FaultSpec spec = new FaultSpec(id, "savepoint-restore", new FaultPosition.Now(), Map.of());
    return switch (status) {
      case FIRED ->
          new FaultEvidence(
              id, spec.fault(), status, AT, AT, "restored", Map.of(), List.of("restored"), "");
      case SKIPPED -> FaultEvidence.skipped(spec, AT, "no JobControl");
      case NOT_PROVEN, ARMED ->
          new FaultEvidence(
              id, spec.fault(), status, AT, null, "stop", Map.of(), List.of(), "never restored");
    };
  }
}
