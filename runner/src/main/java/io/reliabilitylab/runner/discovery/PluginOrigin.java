package io.reliabilitylab.runner.discovery;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Path;
import java.security.CodeSource;
import java.util.Objects;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * Where a discovered plugin came from: the lab's own class path (a built-in jar or module) or a jar
 * of the {@link PluginPath}.
 *
 * @param builtIn whether it is on the lab's own class path rather than the plugin path
 * @param location a built-in's jar file name (or classes directory), a plugin's absolute jar path,
 *     or the class loader's name when the class was not loaded from a file
 */
@API(status = EXPERIMENTAL)
public record PluginOrigin(boolean builtIn, String location) {

  public PluginOrigin {
    Objects.requireNonNull(location, "location");
  }

  /** The origin of {@code implementation}, from the class loader and code source that loaded it. */
  public static PluginOrigin of(Class<?> implementation) {
    Objects.requireNonNull(implementation, "implementation");
    boolean fromPluginPath = implementation.getClassLoader() instanceof PluginClassLoader;
    Path file = file(implementation);
    if (file == null) {
      ClassLoader loader = implementation.getClassLoader();
      return new PluginOrigin(
          !fromPluginPath, loader == null ? "the JDK" : String.valueOf(loader.getName()));
    }
    if (fromPluginPath) {
      return new PluginOrigin(false, file.toString());
    }
    // lib/ of the packaged lab is an implementation detail: the jar's name says the module.
    Path name = file.getFileName();
    boolean jar = name != null && name.toString().endsWith(".jar");
    return new PluginOrigin(true, jar ? name.toString() : file.toString());
  }

  /** {@code built-in <jar>} or {@code plugin <path>}, as {@code list} shows it. */
  public String text() {
    return (builtIn ? "built-in " : "plugin ") + location;
  }

  private static @Nullable Path file(Class<?> implementation) {
    CodeSource source = implementation.getProtectionDomain().getCodeSource();
    URL location = source == null ? null : source.getLocation();
    if (location == null || !"file".equals(location.getProtocol())) {
      return null;
    }
    try {
      return Path.of(location.toURI());
    } catch (URISyntaxException | IllegalArgumentException e) {
      return null;
    }
  }
}
