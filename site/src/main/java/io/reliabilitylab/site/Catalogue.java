package io.reliabilitylab.site;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.reliabilitylab.runner.discovery.Discovered;
import io.reliabilitylab.spi.check.ReconciliationCheck;
import io.reliabilitylab.spi.fault.FaultInjector;
import io.reliabilitylab.spi.fault.FaultPosition;
import io.reliabilitylab.spi.fault.FaultVariant;
import io.reliabilitylab.spi.pipeline.PipelineCapability;
import io.reliabilitylab.spi.pipeline.PipelineProvider;
import java.lang.reflect.Method;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.apiguardian.api.API;

/**
 * The catalogue page: every fault (with its variants), check and pipeline discovered on a class
 * path, written as Markdown from the implementations themselves so that it cannot drift from them.
 *
 * <pre>{@code
 * String markdown = Catalogue.discover(getClass().getClassLoader()).markdown();
 * }</pre>
 */
@API(status = INTERNAL)
public final class Catalogue {

  /** The page's file name in the site. */
  public static final String PAGE = "catalogue.md";

  private final List<FaultInjector> faults;
  private final List<ReconciliationCheck> checks;
  private final List<PipelineProvider> pipelines;

  private Catalogue(
      List<FaultInjector> faults,
      List<ReconciliationCheck> checks,
      List<PipelineProvider> pipelines) {
    this.faults = List.copyOf(faults);
    this.checks = List.copyOf(checks);
    this.pipelines = List.copyOf(pipelines);
  }

  /**
   * The catalogue of everything registered on {@code classLoader}.
   *
   * @throws io.reliabilitylab.runner.discovery.DiscoveryException when a registered implementation
   *     is broken, badly named or ambiguous: the site would otherwise hide it
   */
  public static Catalogue discover(ClassLoader classLoader) {
    Objects.requireNonNull(classLoader, "classLoader");
    return new Catalogue(
        Discovered.faults(classLoader).requireNoProblems().all(),
        Discovered.checks(classLoader).requireNoProblems().all(),
        Discovered.pipelines(classLoader).requireNoProblems().all());
  }

  /** The faults listed, in name order. */
  public List<FaultInjector> faults() {
    return faults;
  }

  /** The checks listed, in name order. */
  public List<ReconciliationCheck> checks() {
    return checks;
  }

  /** The pipelines listed, in name order. */
  public List<PipelineProvider> pipelines() {
    return pipelines;
  }

  /** The page as Markdown. */
  public String markdown() {
    StringBuilder md = new StringBuilder();
    md.append("# Catalogue: faults, checks and pipelines\n\n");
    md.append(
        "Generated when the site is built, from the implementations the lab discovers on its class"
            + " path (`reliability-lab list` prints the same): it lists exactly what ships. A"
            + " scenario is named `<fault>` for a fault's `default` variant and"
            + " `<fault>:<variant>` for the others; select them with `run --faults`. What each"
            + " failure class looks like to an operator is in the [runbooks](runbooks.md); how"
            + " to add your own fault or check is in [writing a plugin](writing-a-plugin.md).\n\n");
    md.append(
        String.format(
            "%d faults with %d variants, %d checks, %d pipelines.%n%n",
            faults.size(),
            faults.stream().mapToInt(fault -> fault.variants().size()).sum(),
            checks.size(),
            pipelines.size()));

    md.append("## Faults\n\n");
    md.append("| fault | what it does | variants |\n|---|---|---|\n");
    for (FaultInjector fault : faults) {
      md.append("| [`")
          .append(fault.name())
          .append("`](#")
          .append(Markdown.slug(fault.name()))
          .append(") | ")
          .append(cell(fault.description()))
          .append(" | ")
          .append(
              fault.variants().stream()
                  .map(variant -> "`" + variant.name() + "`")
                  .collect(Collectors.joining(", ")))
          .append(" |\n");
    }
    md.append('\n');
    for (FaultInjector fault : faults) {
      appendFault(md, fault);
    }

    md.append("## Checks\n\n");
    md.append(
        "Each answers passed, failed or inconclusive, with evidence. A check that needs a"
            + " capability the pipeline lacks is reported as not applicable, never as passed.\n\n");
    md.append("| check | what it checks | needs |\n|---|---|---|\n");
    for (ReconciliationCheck check : checks) {
      md.append("| [`")
          .append(check.name())
          .append("`](#")
          .append(Markdown.slug(check.name()))
          .append(") | ")
          .append(cell(check.description()))
          .append(" | ")
          .append(
              check.requiredCapabilities().isEmpty()
                  ? "every pipeline"
                  : capabilities(check.requiredCapabilities()))
          .append(" |\n");
    }
    md.append('\n');
    for (ReconciliationCheck check : checks) {
      md.append("### ").append(check.name()).append("\n\n");
      md.append(text(check.description())).append("\n\n");
      md.append("- **Implemented by**: `").append(check.getClass().getName()).append("`\n");
      md.append("- **Runs on**: ")
          .append(
              check.requiredCapabilities().isEmpty()
                  ? "every pipeline"
                  : "pipelines offering " + capabilities(check.requiredCapabilities()))
          .append("\n\n");
    }

    md.append("## Pipelines\n\n");
    md.append(
        "Chosen with `run --pipeline <name>`; options are set with `--pipeline-option"
            + " key=value` (the command line fills in the source and job options itself).\n\n");
    for (PipelineProvider pipeline : pipelines) {
      md.append("### ").append(pipeline.name()).append("\n\n");
      md.append(text(pipeline.description())).append("\n\n");
      md.append("- **Implemented by**: `").append(pipeline.getClass().getName()).append("`\n");
      md.append("- **Capabilities**: ")
          .append(
              pipeline.capabilities().isEmpty()
                  ? "not declared (every fault is selected)"
                  : capabilities(pipeline.capabilities()))
          .append('\n');
      md.append("- **Required options**: ")
          .append(options(pipeline.requiredOptions()))
          .append('\n');
      md.append("- **Optional options**: ")
          .append(options(pipeline.optionalOptions()))
          .append("\n\n");
    }
    return md.toString();
  }

  private static void appendFault(StringBuilder md, FaultInjector fault) {
    md.append("### ").append(fault.name()).append("\n\n");
    md.append(text(fault.description())).append("\n\n");
    md.append("- **Implemented by**: `").append(fault.getClass().getName()).append("`\n");
    md.append("- **Needs**: ")
        .append(
            fault.requiredCapabilities().isEmpty()
                ? "nothing"
                : capabilities(fault.requiredCapabilities()))
        .append('\n');
    md.append("- **Positions**: ")
        .append(
            fault.supportedPositions().stream()
                .sorted()
                .map(kind -> "`" + positionForm(kind) + "`")
                .collect(Collectors.joining(", ")))
        .append("\n\n");
    Map<String, String> parameters = declaredParameters(fault);
    if (!parameters.isEmpty()) {
      md.append("| parameter | meaning |\n|---|---|\n");
      parameters.forEach(
          (key, meaning) ->
              md.append("| `").append(key).append("` | ").append(cell(meaning)).append(" |\n"));
      md.append('\n');
    }
    md.append("| scenario | what it does | position | parameters | known hazard |\n");
    md.append("|---|---|---|---|---|\n");
    for (FaultVariant variant : fault.variants()) {
      md.append("| `").append(scenario(fault, variant)).append("` | ");
      md.append(cell(variant.description())).append(" | ");
      md.append(
          variant.position() == null
              ? "picked by the lab"
              : "`" + Objects.requireNonNull(variant.position()).text() + "`");
      md.append(" | ");
      md.append(
          variant.parameters().isEmpty()
              ? "none"
              : variant.parameters().entrySet().stream()
                  .map(entry -> "`" + entry.getKey() + "=" + entry.getValue() + "`")
                  .collect(Collectors.joining(", ")));
      md.append(" | ");
      String hazard = variant.knownHazard();
      md.append(hazard == null ? "none" : "**expected to diverge**: " + cell(hazard));
      md.append(" |\n");
    }
    md.append('\n');
  }

  /** The name a variant runs under: the fault's name for the default variant. */
  public static String scenario(FaultInjector fault, FaultVariant variant) {
    return variant.name().equals(FaultVariant.DEFAULT)
        ? fault.name()
        : fault.name() + ":" + variant.name();
  }

  /** The text form of a position kind, with its placeholders. */
  static String positionForm(FaultPosition.Kind kind) {
    return switch (kind) {
      case NOW -> "now";
      case AFTER_EVENT -> "after-event:K";
      case AT_CHECKPOINT -> "at-checkpoint:N";
      case AROUND_COMMIT -> "around-commit:N:before-swap|after-swap";
      case SNAPSHOT_PHASE -> "snapshot-phase:K";
    };
  }

  /**
   * The parameters a fault documents, when it has a {@code parameters()} method returning a map of
   * parameter to meaning. The SPI has no such method yet; the built-ins declare one internally, so
   * the catalogue reads it reflectively and shows nothing for faults without one.
   */
  static Map<String, String> declaredParameters(FaultInjector fault) {
    for (Class<?> type = fault.getClass(); type != null; type = type.getSuperclass()) {
      try {
        Method method = type.getDeclaredMethod("parameters");
        if (!Map.class.isAssignableFrom(method.getReturnType())) {
          return Map.of();
        }
        method.setAccessible(true);
        Object value = method.invoke(fault);
        if (!(value instanceof Map<?, ?> map)) {
          return Map.of();
        }
        Map<String, String> parameters = new TreeMap<>();
        map.forEach((key, meaning) -> parameters.put(String.valueOf(key), String.valueOf(meaning)));
        return parameters;
      } catch (NoSuchMethodException e) {
        // not declared here: look in the superclass
      } catch (ReflectiveOperationException | RuntimeException e) {
        // a documentation aid only: a fault that does not yield its parameters is listed without
        return Map.of();
      }
    }
    return Map.of();
  }

  private static String capabilities(Collection<Class<? extends PipelineCapability>> types) {
    return types.stream()
        .map(Class::getSimpleName)
        .sorted()
        .map(name -> "`" + name + "`")
        .collect(Collectors.joining(", "));
  }

  private static String options(Set<String> options) {
    return options.isEmpty()
        ? "none"
        : options.stream().sorted().map(key -> "`" + key + "`").collect(Collectors.joining(", "));
  }

  /** Free text as literal Markdown: every ASCII punctuation that could mean markup escaped. */
  static String text(String text) {
    StringBuilder escaped = new StringBuilder();
    for (char c : text.replaceAll("\\s+", " ").strip().toCharArray()) {
      if ("\\`*_[]<>|#!~{}&".indexOf(c) >= 0) {
        escaped.append('\\');
      }
      escaped.append(c);
    }
    return escaped.toString();
  }

  private static String cell(String text) {
    return text(text);
  }
}
