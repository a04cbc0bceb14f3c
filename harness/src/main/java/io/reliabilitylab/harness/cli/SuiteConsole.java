package io.reliabilitylab.harness.cli;

import io.reliabilitylab.record.ExitCode;
import io.reliabilitylab.record.FaultRecord;
import io.reliabilitylab.record.RunRecord;
import io.reliabilitylab.record.SuiteSummary;
import io.reliabilitylab.runner.ScenarioPlan;
import io.reliabilitylab.runner.suite.SuiteListener;
import io.reliabilitylab.runner.suite.SuiteResult;
import io.reliabilitylab.source.mysql.SourceDatabase;
import io.reliabilitylab.spi.check.CheckResult;
import io.reliabilitylab.spi.check.Verdict;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;

/**
 * What {@code run} prints while a suite runs. A suite of several scenarios gets one line per
 * scenario as it ends (its verdict, each fault fired and how fast the pipeline recovered, how long
 * it took) and the suite's verdict; a scenario that did not go as expected gets its checks and
 * reasons too, and a single scenario (or {@code --verbose}) gets them always. While a phase waits,
 * a terminal shows a status line that counts its seconds; any other output gets a plain line when a
 * wait passes {@link #QUIET_WAIT} and again every {@link #QUIET_WAIT} after, so a log shows where a
 * stuck suite is without drowning a passing one.
 */
final class SuiteConsole implements SuiteListener, AutoCloseable {

  static final Duration QUIET_WAIT = Duration.ofSeconds(30);
  private static final Duration STATUS_AFTER = Duration.ofSeconds(2);

  private final PrintWriter printer;
  private final boolean detailed;
  private final boolean terminal;
  private final LongSupplier nanoTime;
  private final @Nullable ScheduledExecutorService ticker;
  private String sourceName = "";
  private int scenarios;
  private int index;
  private @Nullable String scenario;
  private @Nullable String phase;
  private long phaseStarted;
  private long scenarioStarted;
  private long nextPlainLine;
  private int statusWidth;

  /**
   * @param detailed every scenario's checks and timings, not one line per scenario
   * @param terminal the output is a terminal: a status line that rewrites itself
   */
  SuiteConsole(PrintWriter printer, boolean detailed, boolean terminal) {
    this(printer, detailed, terminal, System::nanoTime, true);
  }

  SuiteConsole(
      PrintWriter printer,
      boolean detailed,
      boolean terminal,
      LongSupplier nanoTime,
      boolean tick) {
    this.printer = printer;
    this.detailed = detailed;
    this.terminal = terminal;
    this.nanoTime = nanoTime;
    if (tick) {
      ticker =
          Executors.newSingleThreadScheduledExecutor(
              runnable -> {
                Thread thread = new Thread(runnable, "srl-console");
                thread.setDaemon(true);
                return thread;
              });
      ticker.scheduleWithFixedDelay(this::tick, 1, 1, TimeUnit.SECONDS);
    } else {
      ticker = null;
    }
  }

  /** How many scenarios the suite runs: one alone is always shown in detail. */
  synchronized void scenarios(int count) {
    scenarios = count;
  }

  /** Whether standard output is a terminal that a status line may rewrite. */
  static boolean standardOutputIsATerminal() {
    return System.console() != null && !"dumb".equals(System.getenv("TERM"));
  }

  @Override
  public synchronized void suiteStarting(SourceDatabase source) {
    sourceName = source.kind() + " (" + source.jdbcUrl() + ")";
  }

  @Override
  public synchronized void scenarioStarting(ScenarioPlan plan) {
    index++;
    scenario = plan.scenario();
    phase = null;
    scenarioStarted = nanoTime.getAsLong();
    if (detailed()) {
      printer.printf(
          "Running %s / %s on %s, %d events, seed %d ...%n",
          plan.pipeline(), plan.scenario(), sourceName, plan.events(), plan.seed());
    } else if (index == 1) {
      printer.printf(
          "Running %d %s scenarios on %s, %d events, seed %d%n",
          scenarios, plan.pipeline(), sourceName, plan.events(), plan.seed());
    }
    printer.flush();
  }

  @Override
  public synchronized void phaseStarting(ScenarioPlan plan, String name) {
    phase = name;
    phaseStarted = nanoTime.getAsLong();
    nextPlainLine = phaseStarted + QUIET_WAIT.toNanos();
  }

  @Override
  public synchronized void scenarioFinished(RunRecord record) {
    clearStatus();
    scenario = null;
    phase = null;
    if (detailed()) {
      printDetail(record);
      return;
    }
    SuiteSummary.Entry entry = SuiteSummary.Entry.of(record);
    Duration took = Duration.ofNanos(nanoTime.getAsLong() - scenarioStarted);
    printer.printf(
        "%s %-40s %-21s %6.1f s%s%n",
        counter(),
        record.scenario().name(),
        entry.outcome().toUpperCase(Locale.ROOT).replace('-', ' '),
        took.toMillis() / 1000.0,
        faults(record));
    if (entry.countsAs() != ExitCode.PASSED) {
      printReasons(record);
      printer.printf("        record %s.json%n", record.runId());
    }
    printer.flush();
  }

  @Override
  public synchronized void suiteFinished(SuiteResult result) {
    clearStatus();
    SuiteSummary suite = result.summary();
    Map<String, Long> outcomes =
        suite.runs().stream()
            .collect(
                Collectors.groupingBy(
                    entry -> entry.outcome().replace('-', ' '),
                    TreeMap::new,
                    Collectors.counting()));
    printer.printf(
        "%nSuite %s: %s (%d scenario%s: %s)%n",
        suite.suiteId(),
        suite.verdict(),
        result.records().size(),
        result.records().size() == 1 ? "" : "s",
        outcomes.entrySet().stream()
            .map(outcome -> outcome.getValue() + " " + outcome.getKey())
            .collect(Collectors.joining(", ")));
    printer.printf("Records: %s%n", result.outDirectory());
    printer.flush();
  }

  @Override
  public void close() {
    if (ticker != null) {
      ticker.shutdownNow();
    }
    synchronized (this) {
      clearStatus();
      printer.flush();
    }
  }

  /** Shows how long the running phase has waited: rewritten on a terminal, a line otherwise. */
  synchronized void tick() {
    if (scenario == null || phase == null) {
      return;
    }
    long now = nanoTime.getAsLong();
    long waited = Duration.ofNanos(now - phaseStarted).toSeconds();
    if (terminal) {
      if (waited < STATUS_AFTER.toSeconds()) {
        return;
      }
      String status = String.format("%s %s: %s %d s", counter(), scenario, phase, waited);
      printer.print("\r" + status + " ".repeat(Math.max(0, statusWidth - status.length())));
      statusWidth = status.length();
      printer.flush();
    } else if (now >= nextPlainLine) {
      printer.printf("%s %s: still in %s after %d s%n", counter(), scenario, phase, waited);
      printer.flush();
      nextPlainLine = now + QUIET_WAIT.toNanos();
    }
  }

  private boolean detailed() {
    return detailed || scenarios == 1;
  }

  private void clearStatus() {
    if (statusWidth > 0) {
      printer.print("\r" + " ".repeat(statusWidth) + "\r");
      statusWidth = 0;
    }
  }

  private String counter() {
    String total = Integer.toString(scenarios);
    return String.format("[%" + total.length() + "d/%s]", index, total);
  }

  /** Each fault: fired or not, where, and the recovery time. */
  private static String faults(RunRecord record) {
    if (record.faults().isEmpty()) {
      return "";
    }
    return "  "
        + record.faults().stream().map(SuiteConsole::fault).collect(Collectors.joining("; "));
  }

  private static String fault(FaultRecord fault) {
    String status = fault.evidence().status().name().toLowerCase(Locale.ROOT).replace('_', ' ');
    return fault.spec().fault()
        + " "
        + status
        + " ("
        + fault.spec().position().text()
        + ")"
        + (fault.recoveryTime() == null
            ? ""
            : ", recovered in " + fault.recoveryTime().toMillis() + " ms");
  }

  private void printReasons(RunRecord record) {
    if (record.summary().error() != null) {
      printer.println("        error: " + record.summary().error());
    }
    record.checks().stream()
        .filter(check -> check.verdict() != Verdict.PASSED)
        .forEach(
            check ->
                printer.printf(
                    "        %-30s %-12s %s%n", check.check(), check.verdict(), check.summary()));
    record.summary().reasons().forEach(reason -> printer.println("        - " + reason));
  }

  private void printDetail(RunRecord record) {
    printer.printf("%nRun %s: %s%n", record.runId(), record.summary().verdict());
    List<String> lines = new ArrayList<>();
    for (CheckResult check : record.checks()) {
      lines.add(String.format("  %-30s %-12s %s", check.check(), check.verdict(), check.summary()));
    }
    record
        .faults()
        .forEach(
            fault ->
                lines.add(
                    String.format(
                        "  fault %-24s %-12s %s%s",
                        fault.spec().fault(),
                        fault.evidence().status(),
                        fault.spec().position().text(),
                        fault.recoveryTime() == null
                            ? ""
                            : ", recovered in " + fault.recoveryTime().toMillis() + " ms")));
    record
        .exercises()
        .forEach(
            exercise ->
                lines.add(
                    String.format(
                        "  exercise %-21s %s",
                        exercise.name(),
                        exercise.figures().entrySet().stream()
                            .map(figure -> figure.getKey() + "=" + figure.getValue())
                            .collect(Collectors.joining(", ")))));
    lines.forEach(printer::println);
    if (record.summary().error() != null) {
      printer.println("  error: " + record.summary().error());
    }
    record
        .timings()
        .forEach((name, took) -> printer.printf("  %-12s %6d ms%n", name, took.toMillis()));
    printer.printf("Record: %s.json%n", record.runId());
    if (record.summary().exitCode() != ExitCode.PASSED) {
      record.summary().reasons().forEach(reason -> printer.println("  - " + reason));
    }
    printer.flush();
  }
}
