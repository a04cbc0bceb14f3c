package io.reliabilitylab.junit;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.reliabilitylab.source.mysql.EmbeddedMariaDb;
import io.reliabilitylab.source.mysql.SourceDatabase;
import io.reliabilitylab.spi.pipeline.PipelineProvider;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Supplier;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ExtensionContext.Namespace;

/**
 * Runs the lab's failure scenarios from a JUnit 5 test, against a pipeline found by name on the
 * test's class path.
 *
 * <pre>{@code
 * @RegisterExtension
 * static final ReliabilityLabExtension lab =
 *     ReliabilityLabExtension.forPipeline("direct").withEvents(1_000);
 *
 * @Test
 * void recoversFromALostTaskManager() throws Exception {
 *   RunRecord run = lab.scenario().seed(42).inject("task-failure").run();
 *   assertThat(run).passed().fault("task-failure").fired().recoveredWithin(ofSeconds(30));
 * }
 * }</pre>
 *
 * Before a test class's first test it discovers the pipelines, faults and checks on the test's
 * class loader (failing fast on a broken plugin or an unknown pipeline). The source database — the
 * JVM's shared embedded MariaDB unless {@link #withSource(Supplier)} says otherwise — is opened by
 * the first scenario that runs and closed through the class's extension store when its tests are
 * done. Each test's runs go to {@code target/lab-runs/<test class>/<test method>} and their records
 * name the command {@code junit <test class>#<test method>}.
 *
 * <p>Configure it where it is declared, as a {@code static} field; the {@code withX} methods change
 * this extension and return it. The tests using one extension run one at a time: their scenarios
 * share one source database and its tables.
 */
@API(status = EXPERIMENTAL)
public final class ReliabilityLabExtension
    implements BeforeAllCallback, BeforeEachCallback, AfterEachCallback {

  /** Where runs go unless {@link #withRunsUnder(Path)} says otherwise, relative to the module. */
  public static final Path DEFAULT_RUNS = Path.of("target", "lab-runs");

  private final Namespace namespace = Namespace.create(ReliabilityLabExtension.class, this);
  private ScenarioSettings settings;
  private Supplier<? extends SourceDatabase> source = EmbeddedMariaDb::shared;
  private Path runs = DEFAULT_RUNS;
  private Clock clock = Clock.systemUTC();
  private @Nullable ClassLoader classLoader;
  private final List<PipelineProvider> givenPipelines = new ArrayList<>();
  private @Nullable CurrentTest current;
  private @Nullable String currentId;

  private ReliabilityLabExtension(ScenarioSettings settings) {
    this.settings = settings;
  }

  /** An extension whose scenarios run the pipeline called {@code pipeline}, e.g. {@code direct}. */
  public static ReliabilityLabExtension forPipeline(String pipeline) {
    return new ReliabilityLabExtension(
        ScenarioSettings.defaults(Objects.requireNonNull(pipeline, "pipeline").strip()));
  }

  /**
   * An extension whose scenarios run a pipeline the test gives itself rather than one discovered: a
   * team's own job, e.g. {@code OwnJobPipelines.provider("orders-enricher", topology)}.
   */
  public static ReliabilityLabExtension forPipeline(PipelineProvider pipeline) {
    Objects.requireNonNull(pipeline, "pipeline");
    return forPipeline(pipeline.name()).withPipeline(pipeline);
  }

  /**
   * One more pipeline the scenarios may run, by {@link ScenarioBuilder#pipeline(String)}, besides
   * those discovered on the class path; its name must differ from theirs.
   */
  public ReliabilityLabExtension withPipeline(PipelineProvider pipeline) {
    givenPipelines.add(Objects.requireNonNull(pipeline, "pipeline"));
    return this;
  }

  /** The workload seed of every scenario that does not name one; {@code 42} by default. */
  public ReliabilityLabExtension withSeed(long seed) {
    settings = settings.withSeed(seed);
    return this;
  }

  /** How many change events each scenario writes unless it says; {@code 1000} by default. */
  public ReliabilityLabExtension withEvents(int events) {
    settings = settings.withEvents(events);
    return this;
  }

  /** A pipeline option every scenario passes to the pipeline. */
  public ReliabilityLabExtension withOption(String key, String value) {
    settings = settings.withOption(key, value);
    return this;
  }

  /** The deadline for the job to run and complete a first checkpoint; 60 s by default. */
  public ReliabilityLabExtension withStartTimeout(Duration timeout) {
    settings = settings.withStartTimeout(timeout);
    return this;
  }

  /** The deadline for recovery from each fault and for catch-up; 120 s by default. */
  public ReliabilityLabExtension withCatchUpTimeout(Duration timeout) {
    settings = settings.withCatchUpTimeout(timeout);
    return this;
  }

  /**
   * The source database to capture changes from, instead of the JVM's shared embedded MariaDB. It
   * is closed when the test class is done: an embedded server stops, an external database is left
   * as it was.
   */
  public ReliabilityLabExtension withSource(SourceDatabase database) {
    Objects.requireNonNull(database, "database");
    return withSource(() -> database);
  }

  /**
   * Opens the source database when the test class's first scenario runs (a server or container
   * starts only for a class that needs it), and closes it when the class is done.
   */
  public ReliabilityLabExtension withSource(Supplier<? extends SourceDatabase> opener) {
    this.source = Objects.requireNonNull(opener, "opener");
    return this;
  }

  /** The directory under which each test's runs go, as {@code <test class>/<test method>}. */
  public ReliabilityLabExtension withRunsUnder(Path directory) {
    this.runs = Objects.requireNonNull(directory, "directory");
    return this;
  }

  /** The clock the runner reads its times and deadlines from; the system's UTC clock by default. */
  public ReliabilityLabExtension withClock(Clock runClock) {
    this.clock = Objects.requireNonNull(runClock, "clock");
    return this;
  }

  /** Where pipelines, faults and checks are discovered; the test class's loader by default. */
  public ReliabilityLabExtension withClassLoader(ClassLoader plugins) {
    this.classLoader = Objects.requireNonNull(plugins, "classLoader");
    return this;
  }

  /**
   * A new scenario for the running test, with this extension's defaults.
   *
   * @throws IllegalStateException outside a test method of a class that registers this extension
   */
  public ScenarioBuilder scenario() {
    return new ScenarioBuilder(settings, currentTest(), clock);
  }

  /** Where the running test's runs go: {@code <runs>/<test class>/<test method>}. */
  public Path runDirectory() {
    return currentTest().runDirectory();
  }

  @Override
  public void beforeAll(ExtensionContext context) {
    resources(context);
  }

  @Override
  public void beforeEach(ExtensionContext context) {
    LabResources lab = resources(context);
    CurrentTest test =
        CurrentTest.of(lab, runs, context.getRequiredTestClass(), context.getRequiredTestMethod());
    synchronized (this) {
      CurrentTest running = current;
      if (running != null) {
        throw new ExtensionConfigurationException(
            "The lab runs one test at a time, its scenarios share one source database; "
                + running.command().get(1)
                + " is still running; run them with @Execution(ExecutionMode.SAME_THREAD)");
      }
      current = test;
      currentId = context.getUniqueId();
    }
  }

  @Override
  public synchronized void afterEach(ExtensionContext context) {
    // only the test that set it clears it, not one refused while another ran
    if (context.getUniqueId().equals(currentId)) {
      current = null;
      currentId = null;
    }
  }

  private synchronized CurrentTest currentTest() {
    CurrentTest test = current;
    if (test == null) {
      throw new IllegalStateException(
          "lab.scenario() runs inside a test method of a class that registers this extension"
              + " with @RegisterExtension");
    }
    return test;
  }

  /** The resources of the test class, created by its first callback and closed with its store. */
  private LabResources resources(ExtensionContext context) {
    ExtensionContext testClass = classLevel(context);
    return testClass
        .getStore(namespace)
        .getOrComputeIfAbsent(LabResources.class, key -> open(testClass), LabResources.class);
  }

  private LabResources open(ExtensionContext testClass) {
    ClassLoader plugins =
        classLoader != null ? classLoader : testClass.getRequiredTestClass().getClassLoader();
    LabPlugins discovered = LabPlugins.discover(plugins, givenPipelines);
    discovered.requirePipeline(settings.pipeline());
    return new LabResources(discovered, source);
  }

  /** The context of the test class a test method (or an invocation of one) belongs to. */
  private static ExtensionContext classLevel(ExtensionContext context) {
    ExtensionContext level = context;
    while (level.getTestMethod().isPresent() && level.getParent().isPresent()) {
      level = level.getParent().get();
    }
    return level;
  }
}
