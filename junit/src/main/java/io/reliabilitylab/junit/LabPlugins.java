package io.reliabilitylab.junit;

import io.reliabilitylab.runner.discovery.Plugins;
import io.reliabilitylab.spi.Named;
import io.reliabilitylab.spi.check.ReconciliationCheck;
import io.reliabilitylab.spi.fault.FaultInjector;
import io.reliabilitylab.spi.pipeline.PipelineProvider;
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
    return new LabPlugins(
        discover(PipelineProvider.class, classLoader),
        discover(ReconciliationCheck.class, classLoader),
        discover(FaultInjector.class, classLoader));
  }

  /**
   * Fails unless a pipeline called {@code name} was found.
   *
   * @throws ExtensionConfigurationException naming the pipelines that were found
   */
  void requirePipeline(String name) {
    if (pipelines.stream().noneMatch(pipeline -> pipeline.name().equals(name))) {
      throw new ExtensionConfigurationException(
          "No pipeline '"
              + name
              + "' on the test's class path (found "
              + pipelines.stream().map(PipelineProvider::name).toList()
              + "); add its artifact as a test dependency, e.g. reliability-lab-pipeline-direct"
              + " for 'direct'");
    }
  }

  // The lab's one loader, called from this one place.
  private static <T extends Named> List<T> discover(Class<T> type, ClassLoader classLoader) {
    return Plugins.load(type, classLoader).requireNoProblems().all();
  }
}
