package io.reliabilitylab.harness.cli;

import java.nio.file.Path;
import picocli.CommandLine.Option;

/**
 * What decides the cases an exploration draws, shared by {@code explore} and {@code replay <seed>}
 * so that the same seed draws the same cases with the same defaults: the pipeline, the number of
 * tries (jqwik's draws depend on it) and the workload bound; and where runs are written.
 */
final class ExploreDraws {

  @Option(
      names = "--pipeline",
      defaultValue = "direct",
      description = "The pipeline explored, by name (see 'list'). Default: ${DEFAULT-VALUE}.")
  String pipeline = "direct";

  @Option(
      names = "--tries",
      defaultValue = "20",
      description =
          "Random cases to run (15 to 30 s each); jqwik's draws depend on it. Default:"
              + " ${DEFAULT-VALUE}.")
  int tries = 20;

  @Option(
      names = "--max-changes",
      defaultValue = "60",
      description = "The most changes a case's workload makes. Default: ${DEFAULT-VALUE}.")
  int maxChanges = 60;

  @Option(
      names = "--out",
      defaultValue = "lab-runs",
      description =
          "Directory for the report, case files and run records. Default: ${DEFAULT-VALUE}.")
  Path out = Path.of("lab-runs");
}
