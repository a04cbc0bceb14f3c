package io.reliabilitylab.junit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import io.reliabilitylab.junit.testplugins.UnstartablePipeline;
import io.reliabilitylab.spi.pipeline.PipelineConfig;
import io.reliabilitylab.spi.pipeline.PipelineProvider;
import io.reliabilitylab.spi.pipeline.PipelineUnderTest;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Events;

/**
 * The extension around the tests of a class, seen by running small test classes with JUnit's engine
 * test kit: when the source is opened and closed, what an unknown pipeline does, where a nested
 * test's runs go, and tests that would share the source at once.
 */
class ReliabilityLabExtensionTest {

  @Test
  void theSourceIsOpenedByTheFirstScenarioAndClosedOnceWhenTheClassIsDone() {
    Events tests = run(TwoScenarios.class, Map.of()).testEvents();

    assertThat(tests.succeeded().count()).as(failures(tests)).isEqualTo(3);
    assertThat(TwoScenarios.opened).isEqualTo(1);
    assertThat(TwoScenarios.SOURCE.closes).hasValue(1);
  }

  @Test
  void aClassWhoseTestsRunNoScenarioNeverOpensTheSource() {
    Events tests = run(NoScenario.class, Map.of()).testEvents();

    assertThat(tests.succeeded().count()).as(failures(tests)).isEqualTo(1);
    assertThat(NoScenario.opened).isZero();
  }

  @Test
  void anUnknownPipelineFailsTheClassBeforeAnyTestNamingThePipelinesFound() {
    Events classes = run(UnknownPipeline.class, Map.of()).containerEvents();

    assertThat(messages(classes.failed()))
        .singleElement()
        .asString()
        .contains("No pipeline 'no-such-pipeline' on the test's class path")
        .contains(UnstartablePipeline.NAME)
        .contains("reliability-lab-pipeline-direct");
    assertThat(UnknownPipeline.ran).isFalse();
  }

  @Test
  void aPipelineTheTestGivesIsRunByNameBesidesTheDiscoveredOnes() {
    Events tests = run(GivenPipelines.class, Map.of()).testEvents();

    assertThat(tests.succeeded().count()).as(failures(tests)).isEqualTo(3);
  }

  @Test
  void aGivenPipelineNamedLikeADiscoveredOneFailsTheClass() {
    Events classes = run(GivenPipelineClash.class, Map.of()).containerEvents();

    assertThat(messages(classes.failed()))
        .singleElement()
        .asString()
        .contains("Two pipelines are named '" + UnstartablePipeline.NAME + "'")
        .contains("give yours another name");
  }

  @Test
  void aNestedTestsRunsGoUnderItsOwnClass() {
    Events tests = run(Outer.class, Map.of()).testEvents();

    assertThat(tests.succeeded().count()).as(failures(tests)).isEqualTo(1);
    assertThat(Outer.seen)
        .isEqualTo(
            Path.of(
                "target",
                "lab-runs",
                "ReliabilityLabExtensionTest$Outer$Inner",
                "seesItsDirectory"));
  }

  @Test
  void testsThatWouldShareTheSourceAtOnceAreRefused() {
    Events tests =
        run(
                Concurrent.class,
                Map.of(
                    "junit.jupiter.execution.parallel.enabled", "true",
                    "junit.jupiter.execution.parallel.mode.default", "concurrent",
                    "junit.jupiter.execution.parallel.config.strategy", "fixed",
                    "junit.jupiter.execution.parallel.config.fixed.parallelism", "2"))
            .testEvents();

    assertThat(tests.succeeded().count()).isEqualTo(1);
    assertThat(messages(tests.failed()))
        .singleElement()
        .asString()
        .contains("The lab runs one test at a time")
        .contains("is still running");
  }

  private static EngineExecutionResults run(Class<?> testClass, Map<String, String> configuration) {
    return EngineTestKit.engine("junit-jupiter")
        .configurationParameters(configuration)
        .selectors(selectClass(testClass))
        .execute();
  }

  private static List<String> messages(Events failed) {
    return failed.stream()
        .map(event -> event.getPayload(TestExecutionResult.class).orElseThrow())
        .map(result -> result.getThrowable().map(Throwable::getMessage).orElse(""))
        .toList();
  }

  private static String failures(Events tests) {
    return "failures: " + messages(tests.failed());
  }

  static class TwoScenarios {
    static final UnreachableSource SOURCE = new UnreachableSource();
    static int opened;

    @RegisterExtension
    static final ReliabilityLabExtension lab =
        ReliabilityLabExtension.forPipeline(UnstartablePipeline.NAME)
            .withSource(
                () -> {
                  opened++;
                  return SOURCE;
                });

    @Test
    void first() throws Exception {
      lab.scenario().events(10).run();
    }

    @Test
    void second() throws Exception {
      lab.scenario().events(10).run();
    }

    @Test
    void none() {
      assertThat(SOURCE.closes).hasValue(0);
    }
  }

  static class NoScenario {
    static int opened;

    @RegisterExtension
    static final ReliabilityLabExtension lab =
        ReliabilityLabExtension.forPipeline(UnstartablePipeline.NAME)
            .withSource(
                () -> {
                  opened++;
                  return new UnreachableSource();
                });

    @Test
    void plansOnly() {
      assertThat(lab.scenario().plan().events()).isEqualTo(1_000);
    }
  }

  static class UnknownPipeline {
    static boolean ran;

    @RegisterExtension
    static final ReliabilityLabExtension lab =
        ReliabilityLabExtension.forPipeline("no-such-pipeline").withSource(new UnreachableSource());

    @Test
    void neverRuns() {
      ran = true;
    }
  }

  static class Outer {
    static Path seen = Path.of("unset");

    @RegisterExtension
    static final ReliabilityLabExtension lab =
        ReliabilityLabExtension.forPipeline(UnstartablePipeline.NAME)
            .withSource(new UnreachableSource());

    @Nested
    class Inner {
      @Test
      void seesItsDirectory() {
        seen = lab.scenario().runDirectory();
      }
    }
  }

  static class Concurrent {
    static final CountDownLatch BOTH_STARTED = new CountDownLatch(2);

    @RegisterExtension
    static final ReliabilityLabExtension lab =
        ReliabilityLabExtension.forPipeline(UnstartablePipeline.NAME)
            .withSource(new UnreachableSource());

    @Test
    void one() throws InterruptedException {
      waitForTheOther();
    }

    @Test
    void other() throws InterruptedException {
      waitForTheOther();
    }

    /** Holds the first test until the second has been refused (it never counts down). */
    private static void waitForTheOther() throws InterruptedException {
      BOTH_STARTED.countDown();
      BOTH_STARTED.await(3, TimeUnit.SECONDS);
    }
  }

  /** A team's own job, given to the extension: never discovered, never started here. */
  static final class TeamPipeline implements PipelineProvider {
    private final String name;

    TeamPipeline(String name) {
      this.name = name;
    }

    @Override
    public String name() {
      return name;
    }

    @Override
    public String description() {
      return "A team's job the extension's tests give it and never start.";
    }

    @Override
    public PipelineUnderTest start(PipelineConfig config) {
      throw new UnsupportedOperationException("never started");
    }
  }

  static class GivenPipelines {
    @RegisterExtension
    static final ReliabilityLabExtension lab =
        ReliabilityLabExtension.forPipeline(new TeamPipeline("team-job"))
            .withPipeline(new TeamPipeline("team-job-broken"))
            .withSource(new UnreachableSource());

    @Test
    void theGivenPipelineIsTheDefault() {
      assertThat(lab.scenario().plan().pipeline()).isEqualTo("team-job");
    }

    @Test
    void aScenarioPicksAnotherByName() {
      assertThat(lab.scenario().pipeline("team-job-broken").plan().pipeline())
          .isEqualTo("team-job-broken");
      assertThat(lab.scenario().pipeline(UnstartablePipeline.NAME).plan().pipeline())
          .isEqualTo(UnstartablePipeline.NAME);
    }

    @Test
    void anUnknownNameIsRefusedNamingTheKnownOnes() {
      assertThatThrownBy(() -> lab.scenario().pipeline("nope"))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("No pipeline 'nope'")
          .hasMessageContaining("team-job-broken")
          .hasMessageContaining("withPipeline(provider)");
    }
  }

  static class GivenPipelineClash {
    @RegisterExtension
    static final ReliabilityLabExtension lab =
        ReliabilityLabExtension.forPipeline(new TeamPipeline(UnstartablePipeline.NAME))
            .withSource(new UnreachableSource());

    @Test
    void neverRuns() {}
  }
}
