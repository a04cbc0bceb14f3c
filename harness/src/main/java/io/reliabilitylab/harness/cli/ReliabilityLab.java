package io.reliabilitylab.harness.cli;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.reliabilitylab.harness.secrets.LabLogging;
import io.reliabilitylab.harness.secrets.RedactingWriter;
import io.reliabilitylab.record.ExitCode;
import io.reliabilitylab.runner.discovery.PluginClassLoader;
import io.reliabilitylab.runner.discovery.PluginPath;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.Charset;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.UnmatchedArgumentException;

/**
 * The {@code reliability-lab} command line. {@link #main} runs it for a process; {@link #execute}
 * runs it for a test and returns the exit code instead of exiting.
 *
 * <p>Commands discover plugins on the lab's class loader extended with the jars of the plugin path:
 * the one given to the constructor (for a process, the {@code plugins/} directory next to {@code
 * reliability-lab.jar} and {@code $SRL_PLUGIN_PATH}) followed by the command's {@code
 * --plugin-path} values.
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

  /**
   * The system property that names the directory of {@code reliability-lab.jar}, whose {@code
   * plugins/} directory {@link #main} puts on the plugin path; the jar's launcher sets it.
   */
  public static final String HOME_PROPERTY = "reliability-lab.home";

  /** The commands that discover plugins, and so take {@code --plugin-path}. */
  private static final List<String> DISCOVERING_COMMANDS =
      List.of("bench", "list", "run", "explore", "replay");

  private final PrintWriter out;
  private final PrintWriter err;
  private final ClassLoader labClassLoader;
  private final PluginPath pluginPath;

  /**
   * A command line that writes to {@code out} and {@code err} and discovers faults, checks and
   * pipelines on {@code pluginClassLoader} (and on the jars a command's {@code --plugin-path}
   * names).
   */
  public ReliabilityLab(PrintWriter out, PrintWriter err, ClassLoader pluginClassLoader) {
    this(out, err, pluginClassLoader, PluginPath.empty());
  }

  /**
   * A command line that discovers plugins on {@code labClassLoader} extended with the jars of
   * {@code pluginPath} and of a command's {@code --plugin-path}.
   */
  public ReliabilityLab(
      PrintWriter out, PrintWriter err, ClassLoader labClassLoader, PluginPath pluginPath) {
    this.out = Objects.requireNonNull(out, "out");
    this.err = Objects.requireNonNull(err, "err");
    this.labClassLoader = Objects.requireNonNull(labClassLoader, "labClassLoader");
    this.pluginPath = Objects.requireNonNull(pluginPath, "pluginPath");
  }

  /** Runs the command line and exits the JVM with its {@link ExitCode}. */
  public static void main(String... args) {
    PrintWriter out = redacting(System.out);
    PrintWriter err = redacting(System.err);
    try {
      // Before anything logs: concise, redacted lines on stderr, never on the output users parse.
      LabLogging.configure(List.of(args).contains(LabCommand.VERBOSE));
    } catch (RuntimeException e) {
      err.println(NAME + ": cannot configure logging: " + Errors.oneLine(e));
      System.exit(ExitCode.USAGE_OR_ENVIRONMENT.code());
    }
    ClassLoader loader = Thread.currentThread().getContextClassLoader();
    if (loader == null) {
      loader = ReliabilityLab.class.getClassLoader();
    }
    PluginPath pluginPath;
    try {
      pluginPath =
          defaultPluginPath(
              System.getProperty(HOME_PROPERTY), System.getenv(PluginPath.ENVIRONMENT_VARIABLE));
    } catch (IllegalArgumentException e) {
      err.println(NAME + ": $" + PluginPath.ENVIRONMENT_VARIABLE + ": " + e.getMessage() + ".");
      System.exit(ExitCode.USAGE_OR_ENVIRONMENT.code());
      return;
    }
    System.exit(new ReliabilityLab(out, err, loader, pluginPath).execute(args));
  }

  /**
   * The {@code plugins/} directory in {@code home} when there is one, then the entries of {@code
   * environment} ({@code $SRL_PLUGIN_PATH}).
   *
   * @throws IllegalArgumentException when {@code environment} holds something that is not a path
   */
  static PluginPath defaultPluginPath(@Nullable String home, @Nullable String environment) {
    PluginPath path = PluginPath.empty();
    if (home != null && !home.isBlank()) {
      Path directory = Path.of(home).resolve(PluginPath.DIRECTORY);
      if (Files.isDirectory(directory)) {
        path = PluginPath.of(directory);
      }
    }
    return path.plus(PluginPath.parse(environment));
  }

  /**
   * Runs one command and returns its exit code: {@link ExitCode#PASSED} for success, {@link
   * ExitCode#USAGE_OR_ENVIRONMENT} for a wrong argument or an unexpected error, which is reported
   * as one line on the error writer.
   */
  public int execute(String... args) {
    Objects.requireNonNull(args, "args");
    try {
      PluginPath path = pluginPath.plus(pluginPathOption(args));
      if (path.isEmpty()) {
        return commandLine(labClassLoader, List.of(args)).execute(args);
      }
      try (PluginClassLoader plugins = PluginClassLoader.open(path, labClassLoader)) {
        return executeWith(plugins, args);
      }
    } catch (IOException | RuntimeException e) {
      // picocli reports through the handlers below; this catches failures of the handlers' setup.
      err.println(NAME + ": " + Errors.oneLine(e));
      return ExitCode.USAGE_OR_ENVIRONMENT.code();
    } finally {
      out.flush();
      err.flush();
    }
  }

  /**
   * Runs the command with {@code plugins} as the context class loader too, for libraries (Flink,
   * Iceberg) that load a plugin's classes by name through it.
   */
  private int executeWith(PluginClassLoader plugins, String... args) {
    Thread thread = Thread.currentThread();
    ClassLoader previous = thread.getContextClassLoader();
    thread.setContextClassLoader(plugins);
    try {
      return commandLine(plugins, List.of(args)).execute(args);
    } finally {
      thread.setContextClassLoader(previous);
    }
  }

  /**
   * The {@code --plugin-path} values in {@code args}, found by a plain scan: the commands need the
   * class loader they discover on before the real parse, and a parse of its own would run the
   * interactive {@code --source-password} prompt (and read standard input) a second time. Where the
   * option stands is left to the real parse, which refuses it where no command takes it; a value
   * that does not parse is reported by the real parse too.
   */
  private static PluginPath pluginPathOption(String... args) {
    PluginPath path = PluginPath.empty();
    for (int i = 0; i < args.length; i++) {
      String argument = args[i];
      if (argument.equals("--")) {
        break;
      }
      String value = null;
      if (argument.equals(PluginPathOption.NAME) && i + 1 < args.length) {
        value = args[++i];
      } else if (argument.startsWith(PluginPathOption.NAME + "=")) {
        value = argument.substring(PluginPathOption.NAME.length() + 1);
      }
      if (value != null) {
        try {
          path = path.plus(PluginPath.parse(value));
        } catch (IllegalArgumentException e) {
          return PluginPath.empty();
        }
      }
    }
    return path;
  }

  private static PrintWriter redacting(PrintStream stream) {
    return new PrintWriter(
        new RedactingWriter(new OutputStreamWriter(stream, Charset.defaultCharset())), true);
  }

  private CommandLine commandLine(ClassLoader pluginClassLoader, List<String> arguments) {
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
    for (String name : DISCOVERING_COMMANDS) {
      commandLine.getSubcommands().get(name).addMixin("pluginPath", new PluginPathOption());
    }
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
