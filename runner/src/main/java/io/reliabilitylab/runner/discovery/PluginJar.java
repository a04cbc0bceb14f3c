package io.reliabilitylab.runner.discovery;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;

/**
 * One jar on the plugin path and what it registers for the lab's SPIs in {@code META-INF/services}.
 *
 * @param path the jar, absolute
 * @param registrations each service file line, in the jar's order
 */
record PluginJar(Path path, List<Registration> registrations) {

  static final String SERVICES = "META-INF/services/";

  /** Services files of other libraries (a bundled JDBC driver, say) are not the lab's business. */
  private static final String LAB_SERVICES = SERVICES + "io.reliabilitylab.";

  /**
   * One implementation listed for one service.
   *
   * @param service the service type's binary name, from the file name
   * @param implementation the class named on one line
   */
  record Registration(String service, String implementation) {}

  PluginJar {
    registrations = List.copyOf(registrations);
  }

  /**
   * Opens {@code path} as a jar and reads its registrations.
   *
   * @throws java.util.zip.ZipException when the file is not a zip archive
   * @throws IOException when it cannot be read
   */
  static PluginJar read(Path path) throws IOException {
    Path absolute = path.toAbsolutePath().normalize();
    List<Registration> registrations = new ArrayList<>();
    try (JarFile jar = new JarFile(absolute.toFile(), false)) {
      Enumeration<JarEntry> entries = jar.entries();
      while (entries.hasMoreElements()) {
        JarEntry entry = entries.nextElement();
        if (entry.isDirectory() || !entry.getName().startsWith(LAB_SERVICES)) {
          continue;
        }
        String service = entry.getName().substring(SERVICES.length());
        try (BufferedReader reader =
            new BufferedReader(
                new InputStreamReader(jar.getInputStream(entry), StandardCharsets.UTF_8))) {
          // The ServiceLoader's file format: '#' starts a comment, blank lines are ignored.
          reader
              .lines()
              .map(line -> line.replaceFirst("#.*", "").strip())
              .filter(line -> !line.isEmpty())
              .forEach(line -> registrations.add(new Registration(service, line)));
        }
      }
    }
    return new PluginJar(absolute, registrations);
  }
}
