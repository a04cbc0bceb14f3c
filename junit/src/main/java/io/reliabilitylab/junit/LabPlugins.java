package io.reliabilitylab.junit;

import io.reliabilitylab.runner.discovery.Discovered;
import io.reliabilitylab.spi.Named;
import io.reliabilitylab.spi.check.ReconciliationCheck;
import io.reliabilitylab.spi.fault.FaultInjector;
import io.reliabilitylab.spi.pipeline.PipelineProvider;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;

/** The pipelines, checks and faults found on a test's class path, each named once. */
record LabPlugins(
    List<PipelineProvider> pipelines,
    List<ReconciliationCheck> checks,
    List<FaultInjector> faults) {

  LabPlugins {
    pipelines = List.copyOf(pipelines);
    checks = List.copyOf(checks);
    faults = List.copyOf(faults);
  }

  /**
   * Everything registered on {@code classLoader}; a broken, badly named or ambiguous plugin fails
   * here, naming it, rather than in the middle of a scenario.
   */
  static LabPlugins discover(ClassLoader classLoader) {
    return discover(classLoader, List.of());
  }

  /**
   * Everything registered on {@code classLoader} plus pipelines the test gives itself (a team's own
   * job, which is not registered); a given pipeline may not share a name with a discovered one.
   */
  static LabPlugins discover(ClassLoader classLoader, List<PipelineProvider> given) {
    List<PipelineProvider> pipelines =
        new ArrayList<>(discover(PipelineProvider.class, classLoader));
    for (PipelineProvider pipeline : given) {
      if (pipelines.stream().anyMatch(known -> known.name().equals(pipeline.name()))) {
        throw new ExtensionConfigurationException(
            "Two pipelines are named '"
                + pipeline.name()
                + "': one discovered on the class path, one given to the extension; give yours"
                + " another name");
      }
      pipelines.add(pipeline);
    }
    return new LabPlugins(
        pipelines,
        discover(ReconciliationCheck.class, classLoader),
        discover(FaultInjector.class, classLoader));
  }

  /**
   * Fails unless a pipeline called {@code name} was found.
   *
   * @throws ExtensionConfigurationException naming the pipelines that were found
   */
  void requirePipeline(String name) {
    if (!knows(name)) {
      throw new ExtensionConfigurationException(unknownPipeline(name));
    }
  }

  /** As {@link #requirePipeline}, for a name a test passes to a scenario. */
  void requirePipelineArgument(String name) {
    if (!knows(name)) {
      throw new IllegalArgumentException(unknownPipeline(name));
    }
  }

  private boolean knows(String name) {
    return pipelines.stream().anyMatch(pipeline -> pipeline.name().equals(name));
  }

  private String unknownPipeline(String name) {
    return "No pipeline '"
        + name
        + "' on the test's class path (found "
        + pipelines.stream().map(PipelineProvider::name).toList()
        + "); add its artifact as a test dependency, e.g. reliability-lab-pipeline-direct"
        + " for 'direct', or give your own with withPipeline(provider)";
  }

  // The lab's one loader, called from this one place.
  private static <T extends Named> List<T> discover(Class<T> type, ClassLoader classLoader) {
    return Discovered.load(type, classLoader).requireNoProblems().all();
  }
}
