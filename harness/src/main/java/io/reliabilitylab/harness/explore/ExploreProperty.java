package io.reliabilitylab.harness.explore;

import static org.apiguardian.api.API.Status.INTERNAL;

import net.jqwik.api.AfterFailureMode;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.EdgeCasesMode;
import net.jqwik.api.ForAll;
import net.jqwik.api.GenerationMode;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.ShrinkingMode;
import net.jqwik.api.lifecycle.AddLifecycleHook;
import net.jqwik.api.lifecycle.AroundPropertyHook;
import net.jqwik.api.lifecycle.PropertyExecutionResult;
import net.jqwik.api.lifecycle.PropertyExecutor;
import net.jqwik.api.lifecycle.PropertyLifecycleContext;
import org.apiguardian.api.API;

/**
 * The property an explorer checks, run by jqwik: for a random workload and fault schedule, every
 * check passes after recovery. jqwik draws the cases and shrinks a failing one; {@link Explorer}
 * launches it and supplies, through {@link ExploreSession}, the pipeline and its settings.
 */
@API(status = INTERNAL)
public class ExploreProperty {

  /** The property method's name, which {@link Explorer} selects. */
  static final String METHOD = "everyCheckPassesAfterRecovery";

  /**
   * The session of the launch that made this instance. jqwik's bounded shrinking runs on a pool
   * thread that it abandons, still running, when its time bound passes: that thread must go on
   * asking this (closed) session, never the one a later exploration in the same JVM opened.
   */
  private final ExploreSession session = ExploreSession.current();

  // Randomized without edge cases, so that a seed and a number of tries name the cases exactly;
  // a new seed after a failure, so that exploring again explores further.
  @Property(
      generation = GenerationMode.RANDOMIZED,
      edgeCases = EdgeCasesMode.NONE,
      afterFailure = AfterFailureMode.RANDOM_SEED,
      shrinking = ShrinkingMode.BOUNDED)
  @AddLifecycleHook(SessionSettings.class)
  boolean everyCheckPassesAfterRecovery(@ForAll("cases") ExploreCase exploreCase) throws Exception {
    return session.attempt(exploreCase);
  }

  @Provide
  Arbitrary<ExploreCase> cases() {
    return session.space().cases(session.settings().minChanges(), session.settings().maxChanges());
  }

  /** Sets the tries and seed of the session's settings on the property. */
  public static final class SessionSettings implements AroundPropertyHook {

    @Override
    public PropertyExecutionResult aroundProperty(
        PropertyLifecycleContext context, PropertyExecutor property) {
      ExploreSettings settings = ExploreSession.current().settings();
      context.attributes().setTries(settings.tries());
      if (settings.seed() != null) {
        context.attributes().setSeed(Long.toString(settings.seed()));
      }
      PropertyExecutionResult result = property.execute();
      ExploreSession.current().finished(result.seed().orElse(null));
      return result;
    }
  }
}
