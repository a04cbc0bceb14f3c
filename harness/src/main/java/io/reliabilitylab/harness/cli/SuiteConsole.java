package io.reliabilitylab.harness.cli;

import io.reliabilitylab.record.ExitCode;
import io.reliabilitylab.record.FaultRecord;
import io.reliabilitylab.record.RunRecord;
import io.reliabilitylab.record.SuiteSummary;
import io.reliabilitylab.runner.ScenarioPlan;
import io.reliabilitylab.runner.suite.SuiteListener;
import io.reliabilitylab.runner.suite.SuiteResult;
import io.reliabilitylab.source.jdbc.CdcSource;
import io.reliabilitylab.spi.check.CheckResult;
import io.reliabilitylab.spi.check.Verdict;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.LongSupplier;
import java.util.stream.Collectors;

/**
 * What {@code run} prints while a suite runs. A suite of several scenarios gets one line per
 * scenario as it ends (its verdict, each fault fired and how fast the pipeline recovered, how long
 * it took) and the suite's verdict; a scenario that did not go as expected gets its checks and
 * reasons too, and a single scenario (or {@code --verbose}) gets them always. While a phase waits,
 * the {@link WaitStatus} shows how long.
 */
final class SuiteConsole implements SuiteListener, AutoCloseable {

  private final PrintWriter printer;
  private final boolean detailed;
  private final LongSupplier nanoTime;
  private final WaitStatus status;
  private String sourceName = "";
  private int scenarios;
  private int index;
  private long scenarioStarted;

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
    this.nanoTime = nanoTime;
    this.status = new WaitStatus(printer, terminal, nanoTime, tick);
  }

  /** How many scenarios the suite runs: one alone is always shown in detail. */
  synchronized void scenarios(int count) {
    scenarios = count;
  }

  @Override
  public synchronized void suiteStarting(CdcSource source) {
    sourceName = source.kind() + " (" + source.jdbcUrl() + ")";
  }

  @Override
  public synchronized void scenarioStarting(ScenarioPlan plan) {
    index++;
    scenarioStarted = nanoTime.getAsLong();
    status.stop();
    status.print(
        () -> {
          if (detailed()) {
            printer.printf(
                "Running %s / %s on %s, %d events, seed %d ...%n",
                plan.pipeline(), plan.scenario(), sourceName, plan.events(), plan.seed());
          } else if (index == 1) {
            printer.printf(
                "Running %d %s scenarios on %s, %d events, seed %d%n",
                scenarios, plan.pipeline(), sourceName, plan.events(), plan.seed());
          }
        });
  }

  @Override
  public synchronized void phaseStarting(ScenarioPlan plan, String name) {
    status.waiting(counter() + " " + plan.scenario(), name);
  }

  @Override
  public synchronized void scenarioFinished(RunRecord record) {
    status.stop();
    status.print(() -> printFinished(record));
  }

  private void printFinished(RunRecord record) {
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
  }

  @Override
  public synchronized void suiteFinished(SuiteResult result) {
    status.stop();
    status.print(() -> printSuite(result));
  }

  private void printSuite(SuiteResult result) {
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
  }

  @Override
  public void close() {
    status.close();
  }

  /** Shows how long the running phase has waited (tests tick by hand). */
  void tick() {
    status.tick();
  }

  private boolean detailed() {
    return detailed || scenarios == 1;
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
  }
}
