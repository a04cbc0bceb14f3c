package io.reliabilitylab.testkit;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;
import static org.assertj.core.api.Assertions.assertThat;

import io.reliabilitylab.spi.check.CheckResult;
import io.reliabilitylab.spi.check.ReconciliationCheck;
import io.reliabilitylab.spi.check.Verdict;
import io.reliabilitylab.spi.data.DeliverySemantics;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apiguardian.api.API;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestReporter;
import org.junit.jupiter.api.io.TempDir;

/**
 * The contract every {@link ReconciliationCheck} keeps, as JUnit 5 tests: extend this class and
 * implement {@link #createCheck()}.
 *
 * <pre>{@code
 * class SnapshotDiffCheckContractTest extends ReconciliationCheckContract {
 *   @Override
 *   protected ReconciliationCheck createCheck() {
 *     return new SnapshotDiffCheck();
 *   }
 * }
 * }</pre>
 *
 * It proves that the check is well named and discoverable, answers inconclusive without inputs,
 * never throws, is deterministic, passes every {@link #faithfulContexts() faithful context} and
 * fails at least one {@link #brokenContexts() broken context}: a check that cannot fail is a
 * defect. The defaults are {@link StandardContexts} over the {@code orders} tables; a check that
 * reads other inputs (linkage records, dead-letter records) overrides the context hooks with data
 * of its own, built with {@link OrdersFixtures} and {@link LabeledContext}.
 */
@API(status = EXPERIMENTAL)
public abstract class ReconciliationCheckContract {

  /** Where checks may spill; every context is pointed here. */
  @TempDir Path workDirectory;

  /** A new instance of the check under test. */
  protected abstract ReconciliationCheck createCheck();

  /** Contexts the check must pass. Default: {@link StandardContexts#faithful()}. */
  protected List<LabeledContext> faithfulContexts() {
    return StandardContexts.faithful();
  }

  /** Contexts the check must fail at least one of. Default: {@link StandardContexts#broken()}. */
  protected List<LabeledContext> brokenContexts() {
    return StandardContexts.broken();
  }

  /**
   * More contexts the check must answer without throwing, with no verdict prescribed. Default:
   * {@link StandardContexts#partial()}.
   */
  protected List<LabeledContext> otherContexts() {
    return StandardContexts.partial();
  }

  @Test
  @DisplayName("has a kebab-case name and a one-line description")
  void hasAKebabCaseNameAndAOneLineDescription() {
    Plugins.assertWellNamed(createCheck());
  }

  @Test
  @DisplayName("is found by ServiceLoader under its name, as an instance of its own class")
  void isFoundByServiceLoaderUnderItsName() {
    Plugins.assertDiscoverable(ReconciliationCheck.class, createCheck());
  }

  @Test
  @DisplayName("answers inconclusive, never passed, when given no inputs at all")
  void answersInconclusiveWhenGivenNoInputs() {
    ReconciliationCheck check = createCheck();
    SoftAssertions softly = new SoftAssertions();
    for (DeliverySemantics semantics : DeliverySemantics.values()) {
      LabeledContext context = prepare(StandardContexts.noInputs(semantics));
      CheckResult result = run(check, context);
      softly
          .assertThat(result.verdict())
          .as("verdict of %s for %s; summary: %s", check.name(), context, result.summary())
          .isEqualTo(Verdict.INCONCLUSIVE);
      softly
          .assertThat(result.summary())
          .as("summary of %s for %s (say which input is missing)", check.name(), context)
          .isNotBlank();
    }
    softly.assertAll();
  }

  @Test
  @DisplayName("never throws for any standard context: bad data is reported, not thrown")
  void neverThrowsForAnyStandardContext() {
    ReconciliationCheck check = createCheck();
    SoftAssertions softly = new SoftAssertions();
    for (LabeledContext context : allContexts()) {
      softly
          .assertThatCode(() -> check.check(context.context()))
          .as("%s on %s", check.name(), context)
          .doesNotThrowAnyException();
    }
    softly.assertAll();
  }

  @Test
  @DisplayName("gives an equal result, evidence included, when run twice on the same context")
  void givesAnEqualResultWhenRunTwiceOnTheSameContext() {
    ReconciliationCheck check = createCheck();
    SoftAssertions softly = new SoftAssertions();
    for (LabeledContext context : allContexts()) {
      CheckResult first = run(check, context);
      CheckResult second = run(check, context);
      softly
          .assertThat(second)
          .as("second run of %s on %s", check.name(), context)
          .isEqualTo(first);
    }
    softly.assertAll();
  }

  @Test
  @DisplayName("names itself in every result")
  void namesItselfInEveryResult() {
    ReconciliationCheck check = createCheck();
    SoftAssertions softly = new SoftAssertions();
    for (LabeledContext context : allContexts()) {
      softly
          .assertThat(run(check, context).check())
          .as("CheckResult.check() of %s on %s", check.getClass().getName(), context)
          .isEqualTo(check.name());
    }
    softly.assertAll();
  }

  @Test
  @DisplayName("passes every faithful context")
  void passesEveryFaithfulContext() {
    ReconciliationCheck check = createCheck();
    List<LabeledContext> faithful = faithfulContexts();
    assertThat(faithful).as("faithfulContexts() of %s", getClass().getName()).isNotEmpty();
    SoftAssertions softly = new SoftAssertions();
    for (LabeledContext context : faithful) {
      CheckResult result = run(check, prepare(context));
      softly
          .assertThat(result.verdict())
          .as(
              "verdict of %s on %s; summary: %s; evidence: %s",
              check.name(), context, result.summary(), result.evidence())
          .isEqualTo(Verdict.PASSED);
    }
    softly.assertAll();
  }

  @Test
  @DisplayName("fails at least one broken context: a check that cannot fail is a defect")
  void failsAtLeastOneBrokenContext(TestReporter reporter) {
    ReconciliationCheck check = createCheck();
    List<LabeledContext> broken = brokenContexts();
    assertThat(broken).as("brokenContexts() of %s", getClass().getName()).isNotEmpty();
    Map<String, String> verdicts = new LinkedHashMap<>();
    List<String> caught = new ArrayList<>();
    for (LabeledContext context : broken) {
      Verdict verdict = run(check, prepare(context)).verdict();
      verdicts.put(context.label(), verdict.name());
      if (verdict == Verdict.FAILED) {
        caught.add(context.label());
      }
    }
    reporter.publishEntry(verdicts);
    assertThat(caught)
        .as(
            "%s failed none of the %s broken contexts, so it cannot catch a defect; its verdicts: %s",
            check.name(), broken.size(), verdicts)
        .isNotEmpty();
  }

  @Test
  @DisplayName("explains every failure with a summary and evidence")
  void explainsEveryFailureWithASummaryAndEvidence() {
    ReconciliationCheck check = createCheck();
    SoftAssertions softly = new SoftAssertions();
    for (LabeledContext context : brokenContexts()) {
      CheckResult result = run(check, prepare(context));
      if (result.verdict() != Verdict.FAILED) {
        continue;
      }
      softly
          .assertThat(result.summary())
          .as("summary of %s on %s", check.name(), context)
          .isNotBlank();
      softly
          .assertThat(
              !result.evidence().counts().isEmpty() || !result.evidence().samples().isEmpty())
          .as(
              "%s failed %s with neither counts nor samples in its evidence: %s",
              check.name(), context, result.evidence())
          .isTrue();
    }
    softly.assertAll();
  }

  @Test
  @DisplayName("gives the same verdict when a one-row memory budget forces it to spill")
  void givesTheSameVerdictWhenItMustSpill() {
    ReconciliationCheck check = createCheck();
    SoftAssertions softly = new SoftAssertions();
    List<LabeledContext> contexts = new ArrayList<>(faithfulContexts());
    contexts.addAll(brokenContexts());
    for (LabeledContext context : contexts) {
      Verdict roomy = run(check, prepare(context)).verdict();
      LabeledContext tight = prepare(context).withMaxRowsInMemory(1);
      CheckResult spilled = run(check, tight);
      softly
          .assertThat(spilled.verdict())
          .as("verdict of %s on %s; summary: %s", check.name(), tight, spilled.summary())
          .isEqualTo(roomy);
    }
    softly.assertAll();
  }

  private List<LabeledContext> allContexts() {
    List<LabeledContext> all = new ArrayList<>();
    for (DeliverySemantics semantics : DeliverySemantics.values()) {
      all.add(StandardContexts.noInputs(semantics));
    }
    all.addAll(faithfulContexts());
    all.addAll(brokenContexts());
    all.addAll(otherContexts());
    return all.stream().map(this::prepare).toList();
  }

  private LabeledContext prepare(LabeledContext context) {
    return context.withWorkDirectory(workDirectory);
  }

  private static CheckResult run(ReconciliationCheck check, LabeledContext context) {
    try {
      return check.check(context.context());
    } catch (RuntimeException e) {
      throw new AssertionError(check.name() + " threw on " + context + ": " + e, e);
    }
  }
}
