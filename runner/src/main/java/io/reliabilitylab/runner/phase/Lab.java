package io.reliabilitylab.runner.phase;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.reliabilitylab.source.jdbc.CdcSource;
import io.reliabilitylab.spi.Named;
import io.reliabilitylab.spi.check.ReconciliationCheck;
import io.reliabilitylab.spi.fault.FaultInjector;
import io.reliabilitylab.spi.pipeline.PipelineProvider;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Objects;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * What every scenario of one runner shares: the source database, where records go, the discovered
 * pipelines, checks and faults, the recorded command, the clock and the lab's revision.
 *
 * @param source the source database, started by the caller and reused across scenarios
 * @param outDirectory where run records and each run's own files go
 * @param pipelines the discovered pipeline providers
 * @param checks the checks to run after catch-up
 * @param faults the discovered fault injectors, chosen by name from a plan
 * @param command the command line that started the lab, for the record (secrets are masked)
 * @param clock the clock of every wait and every recorded time
 * @param gitSha the revision the lab runs from, if known
 */
@API(status = INTERNAL)
public record Lab(
    CdcSource source,
    Path outDirectory,
    List<PipelineProvider> pipelines,
    List<ReconciliationCheck> checks,
    List<FaultInjector> faults,
    List<String> command,
    Clock clock,
    @Nullable String gitSha) {

  public Lab {
    Objects.requireNonNull(source, "source");
    Objects.requireNonNull(outDirectory, "outDirectory");
    pipelines = List.copyOf(pipelines);
    checks = List.copyOf(checks);
    faults = List.copyOf(faults);
    command = List.copyOf(command);
    Objects.requireNonNull(clock, "clock");
  }

  /** The pipeline provider named {@code name}; an unknown name's message lists the known ones. */
  public PipelineProvider provider(String name) {
    return named(pipelines, name, "pipeline");
  }

  /** The fault injector named {@code name}; an unknown name's message lists the known ones. */
  public FaultInjector fault(String name) {
    return named(faults, name, "fault");
  }

  /**
   * The plugin of {@code kind} ({@code pipeline}, {@code fault}) named {@code name}.
   *
   * @throws IllegalArgumentException for an unknown name, listing the known ones
   */
  public static <T extends Named> T named(List<T> plugins, String name, String kind) {
    for (T plugin : plugins) {
      if (plugin.name().equals(name)) {
        return plugin;
      }
    }
    throw new IllegalArgumentException(
        "Unknown "
            + kind
            + " '"
            + name
            + "'; available: "
            + plugins.stream().map(Named::name).sorted().toList());
  }
}
