package io.reliabilitylab.runner.discovery;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.reliabilitylab.runner.discovery.DiscoveryProblem.Reason;
import io.reliabilitylab.spi.Failures;
import io.reliabilitylab.spi.Named;
import io.reliabilitylab.spi.check.ReconciliationCheck;
import io.reliabilitylab.spi.fault.FaultInjector;
import io.reliabilitylab.spi.pipeline.PipelineProvider;
import java.net.URL;
import java.security.CodeSource;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The implementations of one SPI found on a class path, ordered by name and selected by name. This
 * is the lab's one place for discovery: every fault, check and pipeline is found through it.
 *
 * <p>Loading never throws for a bad plugin: a class that is missing, is not an implementation,
 * fails in its constructor, has an invalid name or shares its name with another is recorded as a
 * {@link DiscoveryProblem}; over a {@link PluginClassLoader}, so is each jar of the plugin path it
 * left out. Selecting then fails fast while any problem is present, so a run never proceeds with a
 * plugin other than the one the user meant.
 *
 * <pre>{@code
 * Discovered<FaultInjector> faults = Discovered.faults(getClass().getClassLoader());
 * List<FaultInjector> chosen = faults.select("task-failure,checkpoint-failure");
 * }</pre>
 *
 * @param <T> the SPI type
 */
@API(status = EXPERIMENTAL)
public final class Discovered<T extends Named> {

  /** The selection that means every available implementation, in name order. */
  public static final String ALL = "all";

  private static final Logger LOG = LoggerFactory.getLogger(Discovered.class);

  /** A class loader whose service files cannot be read fails on every step; stop eventually. */
  private static final int MAX_PROVIDER_ERRORS = 1_000;

  private final Class<T> type;
  private final String kind;
  private final SortedMap<String, T> byName;
  private final List<DiscoveryProblem> problems;

  private Discovered(
      Class<T> type, String kind, SortedMap<String, T> byName, List<DiscoveryProblem> problems) {
    this.type = type;
    this.kind = kind;
    this.byName = byName;
    this.problems = List.copyOf(problems);
  }

  /** The fault injectors registered on {@code classLoader}. */
  public static Discovered<FaultInjector> faults(ClassLoader classLoader) {
    return load(FaultInjector.class, classLoader);
  }

  /** The reconciliation checks registered on {@code classLoader}. */
  public static Discovered<ReconciliationCheck> checks(ClassLoader classLoader) {
    return load(ReconciliationCheck.class, classLoader);
  }

  /** The pipeline providers registered on {@code classLoader}. */
  public static Discovered<PipelineProvider> pipelines(ClassLoader classLoader) {
    return load(PipelineProvider.class, classLoader);
  }

  /**
   * Finds every implementation of {@code type} registered in {@code META-INF/services} on {@code
   * classLoader}, instantiates each once and records what is wrong with the others.
   */
  public static <T extends Named> Discovered<T> load(Class<T> type, ClassLoader classLoader) {
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(classLoader, "classLoader");
    String kind = kindOf(type);
    List<DiscoveryProblem> problems = new ArrayList<>(pluginPathProblems(classLoader));
    Map<String, List<T>> candidates = new TreeMap<>();

    Iterator<T> providers = ServiceLoader.load(type, classLoader).iterator();
    int errors = 0;
    @Nullable String previousError = null;
    while (errors < MAX_PROVIDER_ERRORS) {
      T provider;
      try {
        if (!providers.hasNext()) {
          break;
        }
        provider = providers.next();
      } catch (ServiceConfigurationError | LinkageError e) {
        // A LinkageError (a provider class whose superclass is missing, say) escapes the
        // ServiceLoader unwrapped; the loader has moved past that line, so go on as for the rest.
        errors++;
        DiscoveryProblem problem = brokenProvider(kind, type, classLoader, e);
        if (problem.message().equals(previousError)) {
          // The same error again means the loader cannot move past it (an unreadable services
          // file fails on every step): report it once and stop.
          break;
        }
        previousError = problem.message();
        problems.add(problem);
        continue;
      }
      String name = validatedName(kind, provider, problems);
      if (name != null) {
        candidates.computeIfAbsent(name, n -> new ArrayList<>()).add(provider);
      }
    }

    SortedMap<String, T> byName = new TreeMap<>();
    candidates.forEach(
        (name, implementations) -> {
          if (implementations.size() == 1) {
            byName.put(name, implementations.get(0));
          } else {
            problems.add(duplicate(kind, name, implementations));
          }
        });
    LOG.debug("Discovered {} {}(s): {}", byName.size(), kind, byName.keySet());
    problems.forEach(problem -> LOG.debug("Discovery problem: {}", problem.message()));
    return new Discovered<>(type, kind, byName, problems);
  }

  /** The SPI these implementations belong to. */
  public Class<T> type() {
    return type;
  }

  /** What users call one of these: {@code fault}, {@code check}, {@code pipeline}. */
  public String kind() {
    return kind;
  }

  /** Every usable implementation, ordered by name. */
  public List<T> all() {
    return List.copyOf(byName.values());
  }

  /** The names of every usable implementation, in order. */
  public List<String> names() {
    return List.copyOf(byName.keySet());
  }

  /** What is wrong with the registered implementations; empty when all is well. */
  public List<DiscoveryProblem> problems() {
    return problems;
  }

  /**
   * Fails when any registered implementation is broken, badly named or ambiguous.
   *
   * @throws DiscoveryException naming every problem
   */
  public Discovered<T> requireNoProblems() {
    if (problems.isEmpty()) {
      return this;
    }
    if (problems.size() == 1) {
      throw new DiscoveryException(problems.get(0).message());
    }
    throw new DiscoveryException(
        problems.size()
            + " problems with the "
            + kind
            + " implementations on the class path:"
            + problems.stream()
                .map(problem -> System.lineSeparator() + "  - " + problem.message())
                .collect(Collectors.joining()));
  }

  /**
   * The implementation called {@code name}.
   *
   * @throws DiscoveryException when no implementation has that name (the message lists the
   *     available ones) or when any registered implementation is broken or ambiguous
   */
  public T get(String name) {
    Objects.requireNonNull(name, "name");
    requireNoProblems();
    if (name.strip().equals(ALL)) {
      throw new DiscoveryException(
          "'" + ALL + "' means every " + kind + "; name exactly one here. " + available());
    }
    T found = byName.get(name.strip());
    if (found == null) {
      throw unknown(name.strip());
    }
    return found;
  }

  /**
   * The implementations named in a comma-separated selection such as {@code "task-failure,
   * checkpoint-failure"}, in the order given, or every implementation for {@value #ALL}.
   *
   * @throws DiscoveryException for an empty selection, an unknown name, or implementations that are
   *     broken or ambiguous
   */
  public List<T> select(String selection) {
    Objects.requireNonNull(selection, "selection");
    List<String> names = new ArrayList<>();
    for (String part : selection.split(",", -1)) {
      if (!part.isBlank()) {
        names.add(part.strip());
      }
    }
    return select(names);
  }

  /**
   * The implementations with the given names, in the order given (repeats dropped), or every
   * implementation when the only name is {@value #ALL}.
   *
   * @throws DiscoveryException for an empty selection, an unknown name, {@value #ALL} when there is
   *     none, or implementations that are broken or ambiguous
   */
  public List<T> select(List<String> names) {
    Objects.requireNonNull(names, "names");
    requireNoProblems();
    Set<String> wanted = new LinkedHashSet<>();
    for (String name : names) {
      wanted.add(name.strip());
    }
    if (wanted.isEmpty()) {
      throw new DiscoveryException(
          "No " + kind + " selected: name at least one, or '" + ALL + "'. " + available());
    }
    if (wanted.contains(ALL)) {
      if (wanted.size() > 1) {
        throw new DiscoveryException(
            "'"
                + ALL
                + "' already selects every "
                + kind
                + "; do not combine it with other names ("
                + String.join(",", wanted)
                + ").");
      }
      if (byName.isEmpty()) {
        // A run over nothing would prove nothing: refuse rather than select an empty list.
        throw new DiscoveryException("'" + ALL + "' selects no " + kind + ". " + available());
      }
      return all();
    }
    List<T> selected = new ArrayList<>();
    List<String> unknown = new ArrayList<>();
    for (String name : wanted) {
      T found = byName.get(name);
      if (found == null) {
        unknown.add(name);
      } else {
        selected.add(found);
      }
    }
    if (!unknown.isEmpty()) {
      throw unknown(String.join("', '", unknown));
    }
    return List.copyOf(selected);
  }

  private DiscoveryException unknown(String names) {
    return new DiscoveryException("Unknown " + kind + " '" + names + "'. " + available());
  }

  private String available() {
    if (byName.isEmpty()) {
      return "No "
          + kind
          + " is available: add a jar that registers a "
          + type.getName()
          + " in META-INF/services to the class path.";
    }
    return "Available "
        + kind
        + "s: "
        + String.join(", ", byName.keySet())
        + " (or '"
        + ALL
        + "').";
  }

  /** The user-facing word for an SPI type. */
  static String kindOf(Class<?> type) {
    if (type == FaultInjector.class) {
      return "fault";
    }
    if (type == ReconciliationCheck.class) {
      return "check";
    }
    if (type == PipelineProvider.class) {
      return "pipeline";
    }
    return type.getSimpleName();
  }

  private static <T extends Named> @Nullable String validatedName(
      String kind, T provider, List<DiscoveryProblem> problems) {
    String where = describe(provider.getClass());
    String name;
    String description;
    try {
      name = provider.name();
      description = provider.description();
    } catch (RuntimeException e) {
      problems.add(
          new DiscoveryProblem(
              kind,
              Reason.BROKEN_PROVIDER,
              "The "
                  + kind
                  + " "
                  + where
                  + " failed to say its name or description: "
                  + Failures.oneLineWithTypes(e)
                  + ". Fix it or remove it from the class path."));
      return null;
    }
    // Implementations outside this code base may return null despite the contract.
    @Nullable String checkedName = name;
    @Nullable String checkedDescription = description;
    if (checkedName == null || !Named.isValidName(checkedName)) {
      problems.add(
          new DiscoveryProblem(
              kind,
              Reason.INVALID_NAME,
              "The "
                  + kind
                  + " "
                  + where
                  + " has the invalid name "
                  + (checkedName == null ? "null" : "'" + checkedName + "'")
                  + ": use lower-case kebab-case (letters, digits, single dashes), for example"
                  + " 'task-failure'."));
      return null;
    }
    if (checkedName.equals(ALL)) {
      problems.add(
          new DiscoveryProblem(
              kind,
              Reason.INVALID_NAME,
              "The "
                  + kind
                  + " "
                  + where
                  + " is named '"
                  + ALL
                  + "', which is reserved for selecting every "
                  + kind
                  + ": rename it."));
      return null;
    }
    if (checkedDescription == null || checkedDescription.isBlank()) {
      problems.add(
          new DiscoveryProblem(
              kind,
              Reason.INVALID_NAME,
              "The "
                  + kind
                  + " '"
                  + checkedName
                  + "' ("
                  + where
                  + ") has no description: return one line that says what it does."));
      return null;
    }
    return checkedName;
  }

  /** The jars a {@link PluginClassLoader} among {@code classLoader} and its parents left out. */
  private static List<DiscoveryProblem> pluginPathProblems(ClassLoader classLoader) {
    List<DiscoveryProblem> problems = new ArrayList<>();
    for (ClassLoader loader = classLoader; loader != null; loader = loader.getParent()) {
      if (loader instanceof PluginClassLoader plugins) {
        problems.addAll(plugins.problems());
      }
    }
    return problems;
  }

  private static DiscoveryProblem brokenProvider(
      String kind, Class<?> type, ClassLoader classLoader, Throwable error) {
    String message =
        error instanceof ServiceConfigurationError
            ? Objects.requireNonNullElse(error.getMessage(), error.toString())
            : "a provider fails to load: " + Failures.named(error);
    // The JDK prefixes the service type; the rest names the provider and what went wrong.
    String prefix = type.getName() + ": ";
    if (message.startsWith(prefix)) {
      message = message.substring(prefix.length());
    }
    Throwable cause = error.getCause();
    StringBuilder line = new StringBuilder("Broken ").append(kind).append(" provider: ");
    line.append(message);
    if (cause != null) {
      line.append(" (").append(Failures.oneLineWithTypes(Failures.rootCause(cause))).append(')');
    }
    String services = PluginJar.SERVICES + type.getName();
    List<String> listing = ServiceFiles.listing(services, classLoader, message);
    if (listing.isEmpty()) {
      line.append(". Fix or remove the jar that lists it in ").append(services).append('.');
    } else {
      line.append(". Fix or remove ")
          .append(String.join(" or ", listing))
          .append(", which lists it in ")
          .append(services)
          .append('.');
    }
    return new DiscoveryProblem(kind, Reason.BROKEN_PROVIDER, line.toString());
  }

  private static <T> DiscoveryProblem duplicate(String kind, String name, List<T> implementations) {
    String classes =
        implementations.stream()
            .map(implementation -> describe(implementation.getClass()))
            .collect(Collectors.joining(" and "));
    return new DiscoveryProblem(
        kind,
        Reason.DUPLICATE_NAME,
        implementations.size()
            + " "
            + kind
            + " implementations are named '"
            + name
            + "': "
            + classes
            + ". Remove one of them from the class path or rename it.");
  }

  private static String describe(Class<?> implementation) {
    CodeSource source = implementation.getProtectionDomain().getCodeSource();
    URL location = source == null ? null : source.getLocation();
    return location == null
        ? implementation.getName()
        : implementation.getName() + " (from " + location + ")";
  }
}
