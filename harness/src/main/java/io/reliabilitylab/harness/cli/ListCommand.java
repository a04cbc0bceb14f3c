package io.reliabilitylab.harness.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.reliabilitylab.record.ExitCode;
import io.reliabilitylab.runner.discovery.Discovered;
import io.reliabilitylab.runner.discovery.DiscoveryProblem;
import io.reliabilitylab.runner.discovery.PluginClassLoader;
import io.reliabilitylab.runner.discovery.PluginOrigin;
import io.reliabilitylab.spi.Named;
import io.reliabilitylab.spi.fault.FaultInjector;
import io.reliabilitylab.spi.fault.FaultPosition;
import io.reliabilitylab.spi.fault.FaultVariant;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code reliability-lab list}: every discovered pipeline, fault and check, one line each. */
@Command(
    name = "list",
    mixinStandardHelpOptions = true,
    optionListHeading = "%nOptions:%n",
    versionProvider = VersionProvider.class,
    description = {
      "Lists every discovered pipeline, fault and check, one line each.",
      "",
      "Plugins are found on the lab's class path (built-in) and on the plugin path: the"
          + " plugins/ directory next to reliability-lab.jar, $SRL_PLUGIN_PATH and --plugin-path."
          + " They are grouped, each with its description and where it came from; faults also"
          + " show the pipeline capabilities they require, the kinds of position they fire at"
          + " (for --faults <fault>@position=...) and their variants. Add --json for a"
          + " machine-readable listing.",
      "Exits with 2 when a plugin jar or a registered plugin is broken, badly named or shares its"
          + " name with another (the problems are listed)."
    })
final class ListCommand implements Callable<Integer> {

  @Spec private CommandSpec spec;

  @Option(names = "--json", description = "Print the listing as JSON.")
  private boolean json;

  private final ClassLoader pluginClassLoader;

  ListCommand(ClassLoader pluginClassLoader) {
    this.pluginClassLoader = pluginClassLoader;
    // Picocli injects the spec before call(); this placeholder is never used.
    this.spec = CommandSpec.create();
  }

  @Override
  public Integer call() throws JsonProcessingException {
    List<Group> groups =
        List.of(
            group("Pipelines", Discovered.pipelines(pluginClassLoader), plugin -> null),
            group("Faults", Discovered.faults(pluginClassLoader), ListCommand::requirements),
            group("Checks", Discovered.checks(pluginClassLoader), plugin -> null));
    // A jar left out of the plugin path is a problem of every group: report it once.
    Set<DiscoveryProblem> unique = new LinkedHashSet<>();
    groups.forEach(group -> unique.addAll(group.problems()));
    List<DiscoveryProblem> problems = List.copyOf(unique);
    List<Path> pluginJars =
        pluginClassLoader instanceof PluginClassLoader plugins ? plugins.jars() : List.of();

    PrintWriter out = spec.commandLine().getOut();
    if (json) {
      out.println(toJson(groups, pluginJars, problems));
    } else {
      printText(out, groups);
      if (pluginClassLoader instanceof PluginClassLoader) {
        out.println();
        out.println(
            pluginJars.isEmpty()
                ? "Plugin jars: none loaded"
                : "Plugin jars (" + pluginJars.size() + "):");
        pluginJars.forEach(jar -> out.println("  " + jar));
      }
      if (!problems.isEmpty()) {
        PrintWriter err = spec.commandLine().getErr();
        err.println(
            spec.qualifiedName() + ": " + problems.size() + " problem(s) with the plugins:");
        problems.forEach(problem -> err.println("  - " + problem.message()));
      }
    }
    return problems.isEmpty() ? ExitCode.PASSED.code() : ExitCode.USAGE_OR_ENVIRONMENT.code();
  }

  private static void printText(PrintWriter out, List<Group> groups) {
    boolean first = true;
    for (Group group : groups) {
      if (!first) {
        out.println();
      }
      first = false;
      if (group.entries().isEmpty()) {
        out.println(group.title() + ": none found");
        continue;
      }
      out.println(group.title() + " (" + group.entries().size() + "):");
      int width = group.entries().stream().mapToInt(entry -> entry.name().length()).max().orElse(0);
      for (Entry entry : group.entries()) {
        StringBuilder line = new StringBuilder("  ").append(entry.name());
        line.append(" ".repeat(width - entry.name().length() + 2)).append(entry.description());
        List<String> requires = entry.requires();
        if (requires != null) {
          line.append("  ")
              .append(
                  requires.isEmpty()
                      ? "(requires no capability)"
                      : "(requires: " + String.join(", ", requires) + ")");
        }
        List<String> positions = entry.positions();
        if (positions != null) {
          line.append("  (fires at: ").append(String.join(", ", positions)).append(')');
        }
        line.append("  [").append(entry.origin().text()).append(']');
        out.println(line);
        // A fault with only its plain variant needs no second line.
        for (FaultVariant variant :
            entry.variants().size() > 1 ? entry.variants() : List.<FaultVariant>of()) {
          out.println(
              "      "
                  + entry.name()
                  + (FaultVariant.DEFAULT.equals(variant.name()) ? "" : ":" + variant.name())
                  + (variant.position() == null ? "" : " at " + variant.position().text())
                  + (variant.knownHazard() == null
                      ? ""
                      : "  (expected to diverge: " + variant.knownHazard() + ")"));
        }
      }
    }
  }

  private static String toJson(
      List<Group> groups, List<Path> pluginJars, List<DiscoveryProblem> problems)
      throws JsonProcessingException {
    Map<String, Object> document = new LinkedHashMap<>();
    for (Group group : groups) {
      List<Map<String, Object>> entries = new ArrayList<>();
      for (Entry entry : group.entries()) {
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("name", entry.name());
        fields.put("description", entry.description());
        List<String> requires = entry.requires();
        if (requires != null) {
          fields.put("required_capabilities", requires);
        }
        List<String> positions = entry.positions();
        if (positions != null) {
          fields.put("positions", positions);
        }
        if (!entry.variants().isEmpty()) {
          List<Map<String, Object>> variants = new ArrayList<>();
          for (FaultVariant variant : entry.variants()) {
            Map<String, Object> v = new LinkedHashMap<>();
            v.put("name", variant.name());
            v.put("description", variant.description());
            v.put("position", variant.position() == null ? null : variant.position().text());
            v.put("parameters", variant.parameters());
            v.put("known_hazard", variant.knownHazard());
            variants.add(v);
          }
          fields.put("variants", variants);
        }
        fields.put("class", entry.className());
        fields.put("origin", entry.origin().builtIn() ? "built-in" : "plugin");
        fields.put("location", entry.origin().location());
        entries.add(fields);
      }
      document.put(group.title().toLowerCase(Locale.ROOT), entries);
    }
    document.put("plugin_jars", pluginJars.stream().map(Path::toString).toList());
    List<Map<String, String>> problemList = new ArrayList<>();
    for (DiscoveryProblem problem : problems) {
      problemList.add(
          Map.of(
              "kind", problem.kind(),
              "reason", problem.reason().name().toLowerCase(Locale.ROOT),
              "message", problem.message()));
    }
    document.put("problems", problemList);
    return new ObjectMapper()
        .enable(SerializationFeature.INDENT_OUTPUT)
        .writeValueAsString(document);
  }

  private static <T extends Named> Group group(
      String title, Discovered<T> plugins, Function<T, @Nullable List<String>> requires) {
    List<Entry> entries = new ArrayList<>();
    for (T plugin : plugins.all()) {
      entries.add(
          new Entry(
              plugin.name(),
              Errors.oneLine(plugin.description()),
              requires.apply(plugin),
              plugin instanceof FaultInjector fault ? positions(fault) : null,
              plugin.getClass().getName(),
              PluginOrigin.of(plugin.getClass()),
              plugin instanceof FaultInjector fault ? fault.variants() : List.of()));
    }
    return new Group(title, entries, plugins.problems());
  }

  private static List<String> requirements(FaultInjector fault) {
    return fault.requiredCapabilities().stream().map(Class::getSimpleName).sorted().toList();
  }

  /** The kinds of position a fault fires at, in the order {@link FaultPosition.Kind} lists them. */
  private static List<String> positions(FaultInjector fault) {
    return fault.supportedPositions().stream().sorted().map(FaultPosition.Kind::text).toList();
  }

  private record Group(String title, List<Entry> entries, List<DiscoveryProblem> problems) {}

  private record Entry(
      String name,
      String description,
      @Nullable List<String> requires,
      @Nullable List<String> positions,
      String className,
      PluginOrigin origin,
      List<FaultVariant> variants) {}
}
