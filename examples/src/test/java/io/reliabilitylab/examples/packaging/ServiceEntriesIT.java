package io.reliabilitylab.examples.packaging;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.ServiceLoader;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Proves that the {@code META-INF/services} entries AutoService generated resolve from the packaged
 * jars themselves, in a class loader that sees nothing but the JDK and {@code target/lib}.
 */
class ServiceEntriesIT {

  private static final String SERVICES = "META-INF/services/";
  private static final String SPI_PREFIX = SERVICES + "io.reliabilitylab.spi.";

  /** One line of a services file: the service type and the class registered for it. */
  record Registration(String jar, String service, String implementation) {}

  @Test
  void everyRegisteredClassLoadsImplementsItsServiceAndInstantiates() throws Exception {
    List<Path> labJars = labJars();
    List<Registration> registrations = new ArrayList<>();
    for (Path jar : labJars) {
      registrations.addAll(registrations(jar));
    }
    assertThat(registrations)
        .as("services entries in %s", labJars)
        .extracting(Registration::service)
        .contains("io.reliabilitylab.spi.check.ReconciliationCheck");

    try (URLClassLoader loader = isolatedLoader()) {
      for (Registration registration : registrations) {
        Class<?> service = Class.forName(registration.service(), false, loader);
        Class<?> implementation = Class.forName(registration.implementation(), true, loader);
        assertThat(service.isAssignableFrom(implementation))
            .as(
                "%s (in %s) implements %s",
                registration.implementation(), registration.jar(), registration.service())
            .isTrue();
        assertThat(implementation.getConstructor().newInstance())
            .as("a new %s", registration.implementation())
            .isNotNull();
      }
    }
  }

  @Test
  void theServiceLoaderFindsTheBuiltInChecksInThePackagedJars() throws Exception {
    try (URLClassLoader loader = isolatedLoader()) {
      Class<?> checkType =
          Class.forName("io.reliabilitylab.spi.check.ReconciliationCheck", false, loader);
      Method name = Class.forName("io.reliabilitylab.spi.Named", false, loader).getMethod("name");
      List<String> names = new ArrayList<>();
      for (Object check : ServiceLoader.load(checkType, loader)) {
        assertThat(check.getClass().getClassLoader())
            .as("%s comes from the packaged jars, not the test class path", check.getClass())
            .isSameAs(loader);
        names.add((String) name.invoke(check));
      }
      assertThat(names).containsAll(PackagedJarIT.BUILT_IN_CHECKS);
    }
  }

  /** Every jar of {@code target/lib}, over the platform class loader: no test class path. */
  private static URLClassLoader isolatedLoader() throws Exception {
    List<URL> urls = new ArrayList<>();
    try (Stream<Path> jars = Files.list(PackagedLab.lib())) {
      for (Path jar : jars.filter(path -> path.toString().endsWith(".jar")).sorted().toList()) {
        urls.add(jar.toUri().toURL());
      }
    }
    return new URLClassLoader(
        "packaged-lab", urls.toArray(URL[]::new), ClassLoader.getPlatformClassLoader());
  }

  private static List<Path> labJars() throws Exception {
    try (Stream<Path> jars = Files.list(PackagedLab.lib())) {
      List<Path> labJars =
          jars.filter(path -> path.getFileName().toString().matches("reliability-lab-.*\\.jar"))
              .sorted()
              .toList();
      assertThat(labJars).as("reliability-lab-*.jar in %s", PackagedLab.lib()).isNotEmpty();
      return labJars;
    }
  }

  private static List<Registration> registrations(Path jarPath) throws Exception {
    List<Registration> registrations = new ArrayList<>();
    try (JarFile jar = new JarFile(jarPath.toFile())) {
      Enumeration<JarEntry> entries = jar.entries();
      while (entries.hasMoreElements()) {
        JarEntry entry = entries.nextElement();
        if (entry.isDirectory() || !entry.getName().startsWith(SPI_PREFIX)) {
          continue;
        }
        String service = entry.getName().substring(SERVICES.length());
        try (BufferedReader reader =
            new BufferedReader(
                new InputStreamReader(jar.getInputStream(entry), StandardCharsets.UTF_8))) {
          reader
              .lines()
              .map(line -> line.replaceFirst("#.*", "").strip())
              .filter(line -> !line.isEmpty())
              .forEach(
                  line ->
                      registrations.add(
                          new Registration(jarPath.getFileName().toString(), service, line)));
        }
      }
    }
    return registrations;
  }
}
