package io.reliabilitylab.harness.explore;

import static org.assertj.core.api.Assertions.assertThat;

import io.reliabilitylab.record.ExitCode;
import io.reliabilitylab.runner.discovery.Discovered;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * jqwik's bounded shrinking abandons its pool thread, still running, when its time bound passes:
 * that thread goes on calling the property instance it started with. Those calls must never reach
 * the session of a later exploration in the same JVM.
 */
class ExploreSessionTest {

  private static final ExploreSpace SPACE =
      new ExploreSpace(
          Discovered.faults(ExploreSessionTest.class.getClassLoader()).all(), Set.of());

  private static final ExploreSettings SETTINGS =
      new ExploreSettings(5, 1L, 1, 20, Duration.ofSeconds(5), 10);

  @AfterEach
  void closeTheSession() {
    ExploreSession.close();
  }

  @Test
  void aPropertyInstanceKeepsTheSessionOfItsOwnLaunch() throws Exception {
    AtomicInteger earlierRuns = new AtomicInteger();
    AtomicInteger laterRuns = new AtomicInteger();
    ExploreSession.open(session(earlierRuns));
    ExploreProperty earlierLaunch = new ExploreProperty();
    ExploreSession.close();
    ExploreSession later = session(laterRuns);
    ExploreSession.open(later);

    ExploreCase stale = SPACE.cases(1, 20).sample();
    assertThat(earlierLaunch.everyCheckPassesAfterRecovery(stale))
        .as("a closed session answers without a run")
        .isTrue();

    assertThat(earlierRuns).hasValue(0);
    assertThat(laterRuns).hasValue(0);
    assertThat(later.runs()).isEmpty();
    assertThat(later.original()).isNull();

    assertThat(new ExploreProperty().everyCheckPassesAfterRecovery(stale))
        .as("the later launch's own instance runs its cases")
        .isTrue();
    assertThat(laterRuns).hasValue(1);
  }

  private static ExploreSession session(AtomicInteger runs) {
    return new ExploreSession(
        SPACE,
        SETTINGS,
        (exploreCase, number, phase) -> {
          runs.incrementAndGet();
          return new Trial(
              number,
              phase,
              exploreCase,
              List.of(),
              exploreCase.workload().digest(),
              ExitCode.PASSED,
              List.of(),
              List.of(),
              null,
              Duration.ZERO);
        },
        trial -> {});
  }
}
