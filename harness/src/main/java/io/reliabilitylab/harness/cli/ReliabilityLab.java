package io.reliabilitylab.harness.cli;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.reliabilitylab.harness.secrets.LabLogging;
import io.reliabilitylab.record.ExitCode;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apiguardian.api.API;
import picocli.CommandLine;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.UnmatchedArgumentException;

/**
 * The {@code reliability-lab} command line. {@link #main} runs it for a process; {@link #execute}
 * runs it for a test and returns the exit code instead of exiting.
 *
 * <pre>{@code
 * StringWriter out = new StringWriter();
 * int exitCode = new ReliabilityLab(new PrintWriter(out), new PrintWriter(System.err),
 *     getClass().getClassLoader()).execute("list", "--json");
 * }</pre>
 */
@API(status = EXPERIMENTAL)
public final class ReliabilityLab {

  static final String NAME = "reliability-lab";

  private final PrintWriter out;
  private final PrintWriter err;
  private final ClassLoader pluginClassLoader;

  /**
   * A command line that writes to {@code out} and {@code err} and discovers faults, checks and
   * pipelines on {@code pluginClassLoader}.
   */
  public ReliabilityLab(PrintWriter out, PrintWriter err, ClassLoader pluginClassLoader) {
    this.out = Objects.requireNonNull(out, "out");
    this.err = Objects.requireNonNull(err, "err");
    this.pluginClassLoader = Objects.requireNonNull(pluginClassLoader, "pluginClassLoader");
  }

  /** Runs the command line and exits the JVM with its {@link ExitCode}. */
  public static void main(String... args) {
    PrintWriter out = new PrintWriter(System.out, true);
    PrintWriter err = new PrintWriter(System.err, true);
    try {
      // Before anything logs: concise, redacted lines on stderr, never on the output users parse.
      LabLogging.configure();
    } catch (RuntimeException e) {
      err.println(NAME + ": cannot configure logging: " + Errors.oneLine(e));
      System.exit(ExitCode.USAGE_OR_ENVIRONMENT.code());
    }
    ClassLoader loader = Thread.currentThread().getContextClassLoader();
    if (loader == null) {
      loader = ReliabilityLab.class.getClassLoader();
    }
    System.exit(new ReliabilityLab(out, err, loader).execute(args));
  }

  /**
   * Runs one command and returns its exit code: {@link ExitCode#PASSED} for success, {@link
   * ExitCode#USAGE_OR_ENVIRONMENT} for a wrong argument or an unexpected error, which is reported
   * as one line on the error writer.
   */
  public int execute(String... args) {
    Objects.requireNonNull(args, "args");
    try {
      return commandLine(List.of(args)).execute(args);
    } catch (RuntimeException e) {
      // picocli reports through the handlers below; this catches failures of the handlers' setup.
      err.println(NAME + ": " + Errors.oneLine(e));
      return ExitCode.USAGE_OR_ENVIRONMENT.code();
    } finally {
      out.flush();
      err.flush();
    }
  }

  CommandLine commandLine(List<String> arguments) {
    CommandLine commandLine = new CommandLine(new LabCommand());
    commandLine.addSubcommand(new BenchCommand(pluginClassLoader));
    commandLine.addSubcommand(new ListCommand(pluginClassLoader));
    List<String> invocation = new ArrayList<>();
    invocation.add(NAME);
    invocation.addAll(arguments);
    commandLine.addSubcommand(new ReconcileCommand(invocation));
    commandLine.addSubcommand(new RunCommand(pluginClassLoader, invocation));
    commandLine.addSubcommand(new ExploreCommand(pluginClassLoader, invocation));
    commandLine.addSubcommand(new ReplayCommand(pluginClassLoader, invocation));
    commandLine.addSubcommand(new ReportCommand());
    commandLine.setOut(out);
    commandLine.setErr(err);
    commandLine.setParameterExceptionHandler((e, args) -> usageError(e));
    commandLine.setExecutionExceptionHandler(
        (e, command, parseResult) -> {
          err.println(qualifiedName(command) + ": " + Errors.oneLine(e));
          return ExitCode.USAGE_OR_ENVIRONMENT.code();
        });
    commandLine.getCommandSpec().usageMessage().exitCodeList(exitCodeList());
    return commandLine;
  }

  private int usageError(ParameterException e) {
    CommandLine command = e.getCommandLine();
    String problem = Errors.oneLine(e.getMessage());
    if (e instanceof UnmatchedArgumentException unmatched) {
      problem = describeUnmatched(command, unmatched);
    }
    String name = qualifiedName(command);
    String sentence = problem.endsWith(".") || problem.endsWith("?") ? problem : problem + ".";
    err.println(name + ": " + sentence + " See '" + name + " --help'.");
    return ExitCode.USAGE_OR_ENVIRONMENT.code();
  }

  private static String describeUnmatched(
      CommandLine command, UnmatchedArgumentException unmatched) {
    String first = unmatched.getUnmatched().isEmpty() ? "" : unmatched.getUnmatched().get(0);
    String suggestion =
        unmatched.getSuggestions().isEmpty()
            ? ""
            : " Did you mean '" + unmatched.getSuggestions().get(0) + "'?";
    if (first.startsWith("-")) {
      return "unknown option '" + first + "'." + suggestion;
    }
    if (!command.getSubcommands().isEmpty()) {
      return "unknown command '"
          + first
          + "'; the commands are: "
          + String.join(", ", command.getSubcommands().keySet())
          + "."
          + suggestion;
    }
    return "unexpected argument '" + first + "'.";
  }

  private static String qualifiedName(CommandLine command) {
    return command.getCommandSpec().qualifiedName();
  }

  private static Map<String, String> exitCodeList() {
    Map<String, String> codes = new LinkedHashMap<>();
    codes.put(
        code(ExitCode.PASSED), "passed: every check passed and every fault was proven to fire");
    codes.put(code(ExitCode.FAILED), "failed: a check failed, or a fault could not be proven");
    codes.put(
        code(ExitCode.USAGE_OR_ENVIRONMENT),
        "usage or environment error: nothing was judged (wrong argument, broken plugin, missing"
            + " prerequisite)");
    codes.put(
        code(ExitCode.INCONCLUSIVE),
        "inconclusive: nothing failed, but a check lacked the evidence to decide");
    return codes;
  }

  private static String code(ExitCode exitCode) {
    return Integer.toString(exitCode.code());
  }
}
