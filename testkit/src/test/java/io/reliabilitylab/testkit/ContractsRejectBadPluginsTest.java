package io.reliabilitylab.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import com.google.auto.service.AutoService;
import io.reliabilitylab.spi.check.CheckContext;
import io.reliabilitylab.spi.check.CheckResult;
import io.reliabilitylab.spi.check.Evidence;
import io.reliabilitylab.spi.check.ReconciliationCheck;
import io.reliabilitylab.spi.fault.FaultContext;
import io.reliabilitylab.spi.fault.FaultEvidence;
import io.reliabilitylab.spi.fault.FaultHandle;
import io.reliabilitylab.spi.fault.FaultInjector;
import io.reliabilitylab.spi.fault.RecoveryEvidence;
import io.reliabilitylab.spi.pipeline.JobControl;
import io.reliabilitylab.spi.pipeline.PipelineCapability;
import java.time.Duration;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.support.descriptor.MethodSource;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Event;
import org.junit.platform.testkit.engine.Events;

/**
 * Runs the contracts against deliberately bad plugins with JUnit's engine test kit and shows that
 * each is rejected by exactly the contract test that names its defect, and passes the rest.
 */
class ContractsRejectBadPluginsTest {

  @Test
  void aCheckThatAlwaysPassesWhenItHasInputIsRejectedForNeverFailingABrokenContext() {
    Outcome outcome = run(AlwaysPassingCheckContract.class);

    assertThat(outcome.failed()).containsExactly("failsAtLeastOneBrokenContext");
    assertThat(outcome.succeeded()).contains("passesEveryFaithfulContext");
    assertThat(outcome.firstFailureMessage())
        .contains("always-passing-check failed none of the")
        .contains("a lost delete");
  }

  @Test
  void aCheckThatPassesWithoutInputsIsRejectedForNotAnsweringInconclusive() {
    Outcome outcome = run(PassesWithoutInputsCheckContract.class);

    assertThat(outcome.failed()).containsExactly("answersInconclusiveWhenGivenNoInputs");
    assertThat(outcome.firstFailureMessage()).contains("no inputs at all").contains("PASSED");
  }

  @Test
  void aCheckThatIsNotRegisteredIsRejectedWithAMessageThatSaysHowToRegisterIt() {
    Outcome outcome = run(UnregisteredCheckContract.class);

    assertThat(outcome.failed()).containsExactly("isFoundByServiceLoaderUnderItsName");
    assertThat(outcome.firstFailureMessage())
        .contains("@AutoService(ReconciliationCheck.class)")
        .contains("META-INF/services/io.reliabilitylab.spi.check.ReconciliationCheck");
  }

  @Test
  void aFaultThatClaimsToHaveFiredOnABarePipelineIsRejected() {
    Outcome outcome = run(FiresOnAnythingFaultContract.class);

    assertThat(outcome.failed())
        .containsExactly("neverClaimsToHaveFiredOnAPipelineWithoutCapabilities");
    assertThat(outcome.aborted())
        .containsExactly("firesWithProofAndRecoversOnAPipelineWithItsCapabilities");
    assertThat(outcome.firstFailureMessage()).contains("FIRED");
  }

  @Test
  void aFaultThatIsSkippedWithoutNamingTheMissingCapabilityIsRejected() {
    Outcome outcome = run(MutelySkippedFaultContract.class);

    assertThat(outcome.failed())
        .containsExactly("neverClaimsToHaveFiredOnAPipelineWithoutCapabilities");
    assertThat(outcome.firstFailureMessage()).contains("JobControl");
  }

  private static Outcome run(Class<?> contractTest) {
    Events tests =
        EngineTestKit.engine("junit-jupiter")
            .selectors(selectClass(contractTest))
            .execute()
            .testEvents();
    return new Outcome(
        methods(tests.failed()),
        methods(tests.succeeded()),
        methods(tests.aborted()),
        tests.failed().stream()
            .map(e -> e.getPayload(TestExecutionResult.class).orElseThrow())
            .map(r -> r.getThrowable().map(Throwable::getMessage).orElse(""))
            .findFirst()
            .orElse(""));
  }

  private static Set<String> methods(Events events) {
    Set<String> names = new TreeSet<>();
    for (Event event : events.list()) {
      event
          .getTestDescriptor()
          .getSource()
          .filter(MethodSource.class::isInstance)
          .map(source -> ((MethodSource) source).getMethodName())
          .ifPresent(names::add);
      if (event.getTestDescriptor().getSource().isEmpty()) {
        names.add(event.getTestDescriptor().getDisplayName());
      }
    }
    return names;
  }

  private record Outcome(
      Set<String> failed, Set<String> succeeded, Set<String> aborted, String firstFailureMessage) {}

  // ---- bad checks -------------------------------------------------------------------------

  /** Answers inconclusive without inputs, and passes everything else: it cannot fail. */
  @AutoService(ReconciliationCheck.class)
  public static final class AlwaysPassingCheck implements ReconciliationCheck {
    @Override
    public String name() {
      return "always-passing-check";
    }

    @Override
    public String description() {
      return "Passes whenever it has an input (a defect the contract must reject)";
    }

    @Override
    public CheckResult check(CheckContext context) {
      boolean anyInput =
          context.expectedCurrent().isPresent()
              || context.actualCurrent().isPresent()
              || context.expectedChangelog().isPresent()
              || context.actualChangelog().isPresent();
      return anyInput
          ? CheckResult.passed(name(), "looks fine", Evidence.builder().count("rows", 1).build())
          : CheckResult.missingInput(name(), "table");
    }
  }

  static class AlwaysPassingCheckContract extends ReconciliationCheckContract {
    @Override
    protected ReconciliationCheck createCheck() {
      return new AlwaysPassingCheck();
    }
  }

  /** A correct check except that it passes when it has nothing to compare. */
  @AutoService(ReconciliationCheck.class)
  public static final class PassesWithoutInputsCheck implements ReconciliationCheck {
    private final SampleCurrentTableCheck delegate = new SampleCurrentTableCheck();

    @Override
    public String name() {
      return "passes-without-inputs-check";
    }

    @Override
    public String description() {
      return "Passes when it has nothing to compare (a defect the contract must reject)";
    }

    @Override
    public CheckResult check(CheckContext context) {
      CheckResult result = delegate.check(context);
      return result.verdict() == io.reliabilitylab.spi.check.Verdict.INCONCLUSIVE
          ? CheckResult.passed(name(), "nothing to compare", Evidence.NONE)
          : new CheckResult(name(), result.verdict(), result.summary(), result.evidence());
    }
  }

  static class PassesWithoutInputsCheckContract extends ReconciliationCheckContract {
    @Override
    protected ReconciliationCheck createCheck() {
      return new PassesWithoutInputsCheck();
    }
  }

  /** A correct check nobody registered for ServiceLoader. */
  public static final class UnregisteredCheck implements ReconciliationCheck {
    private final SampleCurrentTableCheck delegate = new SampleCurrentTableCheck();

    @Override
    public String name() {
      return "unregistered-check";
    }

    @Override
    public String description() {
      return "Correct, but not registered";
    }

    @Override
    public CheckResult check(CheckContext context) {
      CheckResult result = delegate.check(context);
      return new CheckResult(name(), result.verdict(), result.summary(), result.evidence());
    }
  }

  static class UnregisteredCheckContract extends ReconciliationCheckContract {
    @Override
    protected ReconciliationCheck createCheck() {
      return new UnregisteredCheck();
    }
  }

  // ---- bad faults -------------------------------------------------------------------------

  /** Claims it fired whatever the pipeline offers. */
  @AutoService(FaultInjector.class)
  public static final class FiresOnAnythingFault implements FaultInjector {
    @Override
    public String name() {
      return "fires-on-anything";
    }

    @Override
    public String description() {
      return "Claims to have fired without looking (a defect the contract must reject)";
    }

    @Override
    public Set<Class<? extends PipelineCapability>> requiredCapabilities() {
      return Set.of(JobControl.class);
    }

    @Override
    public FaultHandle inject(FaultContext context) {
      FaultEvidence claimed =
          FaultEvidence.builder(context.spec(), context.clock().instant())
              .what("nothing, really")
              .proof("trust me")
              .fired(context.clock().instant())
              .build();
      return new StaticHandle(claimed);
    }
  }

  static class FiresOnAnythingFaultContract extends FaultInjectorContract {
    @Override
    protected FaultInjector createInjector() {
      return new FiresOnAnythingFault();
    }
  }

  /** Skips a bare pipeline, but does not say what is missing. */
  @AutoService(FaultInjector.class)
  public static final class MutelySkippedFault implements FaultInjector {
    @Override
    public String name() {
      return "mutely-skipped";
    }

    @Override
    public String description() {
      return "Skips without naming the missing capability (a defect the contract must reject)";
    }

    @Override
    public Set<Class<? extends PipelineCapability>> requiredCapabilities() {
      return Set.of(JobControl.class);
    }

    @Override
    public FaultHandle inject(FaultContext context) {
      return new StaticHandle(
          FaultEvidence.skipped(context.spec(), context.clock().instant(), "cannot run here"));
    }
  }

  static class MutelySkippedFaultContract extends FaultInjectorContract {
    @Override
    protected FaultInjector createInjector() {
      return new MutelySkippedFault();
    }
  }

  private record StaticHandle(FaultEvidence evidence) implements FaultHandle {
    @Override
    public FaultEvidence awaitFired(Duration timeout) {
      return evidence;
    }

    @Override
    public RecoveryEvidence awaitRecovery(Duration timeout) {
      return RecoveryEvidence.builder(evidence.injectedAt()).build();
    }

    @Override
    public void close() {}
  }
}
