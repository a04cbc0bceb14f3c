package io.reliabilitylab.harness.explore;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.reliabilitylab.record.ExitCode;
import io.reliabilitylab.record.RunId;
import io.reliabilitylab.record.RunRecordReader;
import io.reliabilitylab.record.RunRecordWriter;
import io.reliabilitylab.spi.secret.Redactor;
import java.io.IOException;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;
import org.junit.platform.engine.discovery.DiscoverySelectors;
import org.junit.platform.launcher.EngineFilter;
import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.launcher.listeners.SummaryGeneratingListener;

/**
 * Explores random fault schedules against a pipeline: launches jqwik on {@link ExploreProperty}
 * (through the JUnit Platform, as a build would), so that jqwik draws the cases and shrinks the
 * first failing one, bounded in time and in tries; writes a report with the coverage of the space,
 * every try's case as a file, and the minimal case with the command that replays it.
 *
 * <pre>{@code
 * Explorer explorer = new Explorer(space, new ScenarioTrials(runner, space, "direct", options,
 *     catchUp), "direct", options, out, command);
 * ExploreReport report = explorer.explore(settings);
 * }</pre>
 *
 * Needs jqwik's engine and the JUnit Platform launcher on the class path (optional dependencies of
 * the harness; the packaged command line has them).
 */
@API(status = EXPERIMENTAL)
public final class Explorer {

  private static final String JQWIK_ENGINE = "net.jqwik.engine.JqwikTestEngine";

  private final ExploreSpace space;
  private final TrialRunner trials;
  private final String pipeline;
  private final Map<String, String> options;
  private final RunRecordWriter writer;
  private final List<String> command;
  private Consumer<Trial> onTrial = trial -> {};

  /**
   * @param space what to draw from
   * @param trials runs each case
   * @param pipeline the pipeline's name, for the report and the case files
   * @param options the pipeline options the trials run with, for the case files
   * @param out where the report and case files go (next to the trials' run records)
   * @param command the command line, for the report
   */
  public Explorer(
      ExploreSpace space,
      TrialRunner trials,
      String pipeline,
      Map<String, String> options,
      Path out,
      List<String> command) {
    this.space = Objects.requireNonNull(space, "space");
    this.trials = Objects.requireNonNull(trials, "trials");
    this.pipeline = Objects.requireNonNull(pipeline, "pipeline");
    this.options = Redactor.redactProperties(options);
    this.writer = new RunRecordWriter(out);
    this.command = List.copyOf(command);
  }

  /** Calls {@code listener} after each run, for progress (a long exploration takes hours). */
  public Explorer onTrial(Consumer<Trial> listener) {
    this.onTrial = Objects.requireNonNull(listener, "listener");
    return this;
  }

  /** Runs the exploration and writes its report; one exploration runs at a time per JVM. */
  public ExploreReport explore(ExploreSettings settings) throws IOException {
    synchronized (Explorer.class) {
      requireJqwik();
      Instant started = Instant.now();
      String exploreId = RunId.next(started);
      ExploreSession session = new ExploreSession(space, settings, trials, onTrial);
      ExploreSession.open(session);
      try {
        launch(settings, session);
      } finally {
        ExploreSession.close();
      }
      return report(exploreId, started, settings, session);
    }
  }

  /** Runs a case file's case once more and says whether it showed the same. */
  public Replay replay(CaseFile file) throws Exception {
    Trial trial = trials.run(file.exploreCase(), 1, Trial.Phase.REPLAY);
    return new Replay(trial, file.sameAs(trial));
  }

  /** A replayed case and whether it showed what its file says. */
  public record Replay(Trial trial, boolean reproduced) {}

  /** Reads a case file written by an exploration. */
  public static CaseFile readCase(Path file) throws IOException {
    CaseFile caseFile = RunRecordReader.readDocument(file, CaseFile.class);
    if (!CaseFile.FORMAT.equals(caseFile.format())) {
      throw new IOException(
          file + " is not a case file of this lab (format '" + caseFile.format() + "')");
    }
    return caseFile;
  }

  private static void requireJqwik() {
    try {
      Class.forName(JQWIK_ENGINE, false, Explorer.class.getClassLoader());
    } catch (ClassNotFoundException e) {
      throw new IllegalStateException(
          "Exploring needs jqwik's engine on the class path: add net.jqwik:jqwik-engine and"
              + " org.junit.platform:junit-platform-launcher (the packaged command line has both)");
    }
  }

  private void launch(ExploreSettings settings, ExploreSession session) throws IOException {
    Method property;
    try {
      property = ExploreProperty.class.getDeclaredMethod(ExploreProperty.METHOD, ExploreCase.class);
    } catch (NoSuchMethodException e) {
      throw new IllegalStateException("ExploreProperty lost its property method", e);
    }
    LauncherDiscoveryRequest request =
        LauncherDiscoveryRequestBuilder.request()
            .selectors(DiscoverySelectors.selectMethod(ExploreProperty.class, property))
            .filters(EngineFilter.includeEngines("jqwik"))
            // jqwik's own bound on shrinking; a run in progress when it passes finishes
            .configurationParameter(
                "jqwik.shrinking.bounded.seconds",
                Long.toString(Math.max(1, settings.shrinkTime().toSeconds())))
            // jqwik's report goes to the launcher's listeners, not to standard out
            .configurationParameter("jqwik.reporting.usejunitplatform", "true")
            .configurationParameter(
                "jqwik.database", writer.directory().resolve(".jqwik-database").toString())
            .configurationParameter("jqwik.failures.runfirst", "false")
            .build();
    Launcher launcher = LauncherFactory.create();
    SummaryGeneratingListener listener = new SummaryGeneratingListener();
    Files.createDirectories(writer.directory());
    launcher.execute(request, listener);
    if (listener.getSummary().getTestsFoundCount() == 0) {
      throw new IllegalStateException(
          "jqwik found no explore property to run; is net.jqwik:jqwik-engine on the class path?");
    }
    if (session.original() == null && session.problem() == null) {
      // jqwik failed outside any case (a generator, a filter that rejects too much): never a pass
      listener.getSummary().getFailures().stream()
          .findFirst()
          .ifPresent(
              failure ->
                  session.problem(
                      new IllegalStateException(
                          "jqwik stopped the exploration: " + failure.getException(),
                          failure.getException())));
    }
  }

  private ExploreReport report(
      String exploreId, Instant started, ExploreSettings settings, ExploreSession session)
      throws IOException {
    List<ExploreReport.TrialSummary> summaries = new ArrayList<>();
    for (Trial trial : session.runs()) {
      summaries.add(ExploreReport.TrialSummary.of(trial));
      if (trial.phase() == Trial.Phase.GENERATED) {
        writer.writeDocument(
            "explore-" + exploreId + "-try-" + trial.number() + ".case.json",
            CaseFile.of(pipeline, options, trial, session.seed()));
      }
    }
    ExploreReport.Finding finding = null;
    Trial original = session.original();
    Trial minimal = session.minimal();
    if (original != null && minimal != null) {
      Path caseFile =
          writer.writeDocument(
              "explore-" + exploreId + "-minimal.case.json",
              CaseFile.of(pipeline, options, minimal, session.seed()));
      finding =
          new ExploreReport.Finding(
              ExploreReport.TrialSummary.of(original),
              ExploreReport.TrialSummary.of(minimal),
              minimal.exploreCase().workload().transactions().stream()
                  .map(Object::toString)
                  .toList(),
              minimal.failedChecks(),
              session.shrinkTries(),
              session.shrinkSkipped(),
              session.shrinkTime(),
              caseFile.toString(),
              "reliability-lab replay " + caseFile);
    }
    @Nullable Exception problem = session.problem();
    ExitCode exitCode =
        problem != null
            ? ExitCode.USAGE_OR_ENVIRONMENT
            : finding != null ? ExitCode.FAILED : ExitCode.PASSED;
    ExploreReport report =
        new ExploreReport(
            ExploreReport.FORMAT,
            exploreId,
            pipeline,
            options,
            Redactor.commandLine(command),
            started,
            Instant.now(),
            session.seed(),
            settings,
            exitCode,
            summaries,
            session.coverage(),
            finding,
            problem == null ? null : Redactor.redact(problem.toString()));
    writer.writeDocument("explore-" + exploreId + ".json", report);
    return report;
  }
}
