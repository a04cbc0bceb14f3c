package io.reliabilitylab.runner.discovery;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.io.File;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * Where plugin jars are looked for outside the lab's own class path: jars and directories of jars,
 * in order. {@link PluginClassLoader#open} loads them.
 *
 * <pre>{@code
 * PluginPath path = PluginPath.parse(System.getenv(PluginPath.ENVIRONMENT_VARIABLE));
 * try (PluginClassLoader plugins = PluginClassLoader.open(path, getClass().getClassLoader())) {
 *   Discovered<ReconciliationCheck> checks = Discovered.checks(plugins);
 * }
 * }</pre>
 *
 * @param entries jar files and directories; a directory stands for the {@code *.jar} files in it
 */
@API(status = EXPERIMENTAL)
public record PluginPath(List<Path> entries) {

  /** The environment variable the command line reads a plugin path from. */
  public static final String ENVIRONMENT_VARIABLE = "SRL_PLUGIN_PATH";

  /** The directory next to {@code reliability-lab.jar} whose jars are always loaded. */
  public static final String DIRECTORY = "plugins";

  public PluginPath {
    entries = List.copyOf(entries);
  }

  /** No plugin jars at all. */
  public static PluginPath empty() {
    return new PluginPath(List.of());
  }

  /** The given jars and directories, in order. */
  public static PluginPath of(Path... entries) {
    return new PluginPath(List.of(entries));
  }

  /**
   * The entries of {@code text} separated by the platform's path separator ({@code :}, or {@code ;}
   * on Windows), as in a class path; empty entries are skipped, so {@code null} or a blank text is
   * the empty path.
   *
   * @throws IllegalArgumentException for an entry that is not a path on this platform
   */
  public static PluginPath parse(@Nullable String text) {
    if (text == null || text.isBlank()) {
      return empty();
    }
    List<Path> entries = new ArrayList<>();
    for (String part : text.split(File.pathSeparator, -1)) {
      String entry = part.strip();
      if (entry.isEmpty()) {
        continue;
      }
      try {
        entries.add(Path.of(entry));
      } catch (InvalidPathException e) {
        throw new IllegalArgumentException(
            "'" + entry + "' on the plugin path is not a path: " + e.getReason(), e);
      }
    }
    return new PluginPath(entries);
  }

  /** This path followed by {@code more}. */
  public PluginPath plus(PluginPath more) {
    Objects.requireNonNull(more, "more");
    List<Path> all = new ArrayList<>(entries);
    all.addAll(more.entries());
    return new PluginPath(all);
  }

  /** Whether it names nothing. */
  public boolean isEmpty() {
    return entries.isEmpty();
  }

  @Override
  public String toString() {
    return String.join(
        File.pathSeparator, entries.stream().map(Path::toString).toArray(String[]::new));
  }
}
