package io.reliabilitylab.runner.discovery;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.reliabilitylab.runner.discovery.DiscoveryProblem.Reason;
import io.reliabilitylab.runner.discovery.PluginJar.Registration;
import io.reliabilitylab.spi.Failures;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Stream;
import java.util.zip.ZipException;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The lab's class loader extended with the jars of a {@link PluginPath}: what {@link Discovered}
 * runs over, so that a plugin jar written outside the lab is found next to the built-in plugins.
 *
 * <p>Opening never throws for a bad jar. A jar that is missing, unreadable or not a zip, or whose
 * {@code META-INF/services} names a class that is absent, fails to load or does not implement the
 * service, is left out and recorded as a {@link DiscoveryProblem} that names the jar; the other
 * jars load. {@link Discovered} reports these problems with its own, so selecting a plugin fails
 * fast while a jar the user installed is broken.
 */
@API(status = EXPERIMENTAL)
public final class PluginClassLoader extends URLClassLoader {

  static {
    ClassLoader.registerAsParallelCapable();
  }

  /** What users call an entry of the plugin path in problems. */
  static final String KIND = "plugin jar";

  private static final Logger LOG = LoggerFactory.getLogger(PluginClassLoader.class);

  private final List<Path> jars;
  private final List<DiscoveryProblem> problems;

  private PluginClassLoader(
      List<PluginJar> jars, ClassLoader parent, List<DiscoveryProblem> problems) {
    super("plugins", urls(jars), parent);
    this.jars = jars.stream().map(PluginJar::path).toList();
    this.problems = List.copyOf(problems);
  }

  /**
   * Loads the jars of {@code path} over {@code parent} (the lab's own class loader, which is asked
   * first), leaving out and recording the broken ones.
   */
  public static PluginClassLoader open(PluginPath path, ClassLoader parent) {
    Objects.requireNonNull(path, "path");
    Objects.requireNonNull(parent, "parent");
    List<DiscoveryProblem> problems = new ArrayList<>();
    List<PluginJar> accepted = readable(path, problems);
    // A jar is checked with the others present, so that a plugin may depend on a library jar
    // next to it; leaving one out can break another that needs it, so check again until stable.
    while (true) {
      Map<PluginJar, String> broken = new LinkedHashMap<>();
      try (URLClassLoader probe = new URLClassLoader(urls(accepted), parent)) {
        for (PluginJar jar : accepted) {
          String failure = firstFailure(jar, probe);
          if (failure != null) {
            broken.put(jar, failure);
          }
        }
      } catch (IOException e) {
        throw new UncheckedIOException("cannot close the class loader checking plugin jars", e);
      }
      if (broken.isEmpty()) {
        break;
      }
      broken.forEach((jar, failure) -> problems.add(problem(failure)));
      accepted.removeAll(broken.keySet());
    }
    PluginClassLoader loader = new PluginClassLoader(accepted, parent, problems);
    LOG.debug("Plugin path {}: loaded {}, left out {}", path, loader.jars(), problems.size());
    return loader;
  }

  /** The jars loaded, in plugin path order. */
  public List<Path> jars() {
    return jars;
  }

  /** What is wrong with the plugin path: the jars left out and why; empty when all is well. */
  public List<DiscoveryProblem> problems() {
    return problems;
  }

  private static List<PluginJar> readable(PluginPath path, List<DiscoveryProblem> problems) {
    List<PluginJar> jars = new ArrayList<>();
    Set<Path> seen = new HashSet<>();
    for (Path file : files(path, problems)) {
      try {
        // The same jar named twice (in plugins/ and on --plugin-path) would clash with itself.
        if (!seen.add(file.toRealPath())) {
          continue;
        }
        jars.add(PluginJar.read(file));
      } catch (ZipException e) {
        problems.add(
            problem(
                describe(file)
                    + " is not a jar ("
                    + Failures.named(e)
                    + "): replace it with the jar your build wrote, or remove it"));
      } catch (IOException e) {
        problems.add(
            problem(
                describe(file)
                    + " cannot be read ("
                    + Failures.named(e)
                    + "): make it readable, or remove it from the plugin path"));
      }
    }
    return jars;
  }

  /** The files the entries stand for: a jar itself, or the {@code *.jar} in a directory. */
  private static List<Path> files(PluginPath path, List<DiscoveryProblem> problems) {
    List<Path> files = new ArrayList<>();
    for (Path entry : path.entries()) {
      Path absolute = entry.toAbsolutePath().normalize();
      if (Files.isDirectory(absolute)) {
        try (Stream<Path> children = Files.list(absolute)) {
          children
              .filter(
                  child -> child.getFileName().toString().toLowerCase(Locale.ROOT).endsWith(".jar"))
              .filter(child -> !Files.isDirectory(child))
              .sorted()
              .forEach(files::add);
        } catch (IOException | UncheckedIOException e) {
          problems.add(
              new DiscoveryProblem(
                  KIND,
                  Reason.BROKEN_JAR,
                  "The plugin directory "
                      + absolute
                      + " cannot be read ("
                      + Failures.named(e)
                      + "): make it readable, or take it off the plugin path."));
        }
      } else if (Files.exists(absolute)) {
        files.add(absolute);
      } else {
        problems.add(
            new DiscoveryProblem(
                KIND,
                Reason.BROKEN_JAR,
                "The plugin path names "
                    + absolute
                    + ", which does not exist: correct the plugin path (--plugin-path, "
                    + PluginPath.ENVIRONMENT_VARIABLE
                    + ")."));
      }
    }
    return files;
  }

  /** Why {@code jar} cannot be used, or {@code null}: each registration must load as its type. */
  private static @Nullable String firstFailure(PluginJar jar, ClassLoader probe) {
    for (Registration registration : jar.registrations()) {
      Class<?> service;
      try {
        service = Class.forName(registration.service(), false, probe);
      } catch (ClassNotFoundException | LinkageError e) {
        // A service of another lab version, perhaps: not one this lab discovers.
        LOG.debug("{} registers for the unknown service {}", jar.path(), registration.service());
        continue;
      }
      String kind = Discovered.kindOf(service);
      String implementation = registration.implementation();
      String listed =
          describe(jar.path())
              + " lists "
              + implementation
              + " in "
              + PluginJar.SERVICES
              + registration.service();
      Class<?> type;
      try {
        type = Class.forName(implementation, false, probe);
      } catch (ClassNotFoundException e) {
        return listed
            + ", but neither the jar nor the lab has that class: correct the services file or"
            + " rebuild the jar";
      } catch (LinkageError e) {
        String remedy =
            e instanceof UnsupportedClassVersionError
                ? "it was compiled for a newer Java than this one ("
                    + Runtime.version().feature()
                    + "): compile it for Java 17"
                : "put the jars it needs on the plugin path too, or rebuild it against this lab's"
                    + " SPI";
        return describe(jar.path())
            + ": its "
            + kind
            + " "
            + implementation
            + " fails to load ("
            + Failures.named(e)
            + "): "
            + remedy;
      }
      if (!service.isAssignableFrom(type)) {
        return listed
            + ", which is not a "
            + service.getSimpleName()
            + ": correct the services file or the class";
      }
    }
    return null;
  }

  private static DiscoveryProblem problem(String whatIsWrongAndWhatToDo) {
    return new DiscoveryProblem(
        KIND, Reason.BROKEN_JAR, whatIsWrongAndWhatToDo + "; it was not loaded.");
  }

  private static String describe(Path jar) {
    return "Plugin jar " + jar;
  }

  private static URL[] urls(List<PluginJar> jars) {
    URL[] urls = new URL[jars.size()];
    for (int i = 0; i < urls.length; i++) {
      try {
        urls[i] = jars.get(i).path().toUri().toURL();
      } catch (MalformedURLException e) {
        throw new IllegalArgumentException("not a file URL: " + jars.get(i).path(), e);
      }
    }
    return urls;
  }
}
