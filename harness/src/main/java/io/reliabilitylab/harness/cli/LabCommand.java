package io.reliabilitylab.harness.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ScopeType;
import picocli.CommandLine.Spec;

/** The top command: says what the lab is and dispatches to its subcommands. */
@Command(
    name = ReliabilityLab.NAME,
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    synopsisSubcommandLabel = "COMMAND",
    description = {
      "Breaks change-data-capture pipelines on purpose and proves, with evidence, that nothing was"
          + " lost or duplicated after recovery.",
      "",
      "A run starts a pipeline (MySQL/MariaDB -> Flink -> Iceberg, directly or through Kafka),"
          + " injects faults (task failure, checkpoint failure, broker restart, poison message,"
          + " ...), then reconciles source and sink with checks and writes a run record. Faults,"
          + " checks and pipelines are plugins found by name on the class path and in the plugins/"
          + " directory next to reliability-lab.jar (see 'list --help')."
    },
    optionListHeading = "%nOptions:%n",
    commandListHeading = "%nCommands:%n",
    exitCodeListHeading = "%nExit codes:%n",
    footer = {"", "Run '" + ReliabilityLab.NAME + " COMMAND --help' for a command's options."})
final class LabCommand implements Callable<Integer> {

  /** Everything on the console, the third-party engines' lines too (read by main at startup). */
  static final String VERBOSE = "--verbose";

  @Spec private CommandSpec spec;

  @Option(
      names = VERBOSE,
      scope = ScopeType.INHERIT,
      description =
          "Print every log line on the console (Flink, Kafka, Debezium, Iceberg, the database),"
              + " not only the lab's own; by default they go to the log file in --out.")
  private boolean verbose;

  LabCommand() {
    // Picocli injects the spec before call(); this placeholder is never used.
    this.spec = CommandSpec.create();
  }

  @Override
  public Integer call() {
    throw new ParameterException(
        spec.commandLine(),
        "no command given; the commands are: "
            + String.join(", ", spec.subcommands().keySet())
            + ".");
  }
}
