package io.reliabilitylab.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import io.reliabilitylab.spi.Named;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;

/** Assertions both contracts share: naming and discovery. */
final class Plugins {

  private Plugins() {}

  static void assertWellNamed(Named plugin) {
    String kind = plugin.getClass().getName();
    assertThat(plugin.name())
        .as("name() of %s", kind)
        .isNotNull()
        .matches(
            Named::isValidName,
            "is lower-case kebab-case (letters, digits, single dashes), e.g. snapshot-diff");
    assertThat(plugin.description())
        .as("description() of %s (shown by 'reliability-lab list')", kind)
        .isNotNull()
        .isNotBlank()
        .doesNotContain("\n")
        .doesNotContain("\r");
  }

  /**
   * Finds the plugin with {@link ServiceLoader} as the lab does, by its name, and checks it is an
   * instance of the factory's class and that no other provider claims the same name.
   */
  static <S extends Named> void assertDiscoverable(Class<S> spi, S plugin) {
    Class<?> type = plugin.getClass();
    ServiceLoader<S> loader = ServiceLoader.load(spi, type.getClassLoader());
    List<String> errors = new ArrayList<>();
    List<S> sameName = new ArrayList<>();
    List<String> seen = new ArrayList<>();
    Iterator<ServiceLoader.Provider<S>> providers = loader.stream().iterator();
    while (true) {
      ServiceLoader.Provider<S> provider;
      try {
        if (!providers.hasNext()) {
          break;
        }
        provider = providers.next();
      } catch (ServiceConfigurationError e) {
        errors.add(e.getMessage());
        continue;
      }
      try {
        S found = provider.get();
        seen.add(found.name() + " (" + found.getClass().getName() + ")");
        if (plugin.name().equals(found.name())) {
          sameName.add(found);
        }
      } catch (ServiceConfigurationError | RuntimeException e) {
        errors.add(provider.type().getName() + ": " + e);
      }
    }
    String services = "META-INF/services/" + spi.getName();
    if (sameName.isEmpty()) {
      fail(
          "ServiceLoader finds no %s named '%s'. Register %s: annotate it with"
              + " @AutoService(%s.class) (auto-service in the compiler's annotationProcessorPaths)"
              + " or list it in %s. Found: %s%s",
          spi.getSimpleName(),
          plugin.name(),
          type.getName(),
          spi.getSimpleName(),
          services,
          seen,
          errors.isEmpty() ? "" : "; entries that did not resolve: " + errors);
    }
    assertThat(sameName)
        .as(
            "providers of %s named '%s' (names must be unique on the classpath; found %s)",
            spi.getSimpleName(), plugin.name(), seen)
        .hasSize(1);
    assertThat(sameName.get(0).getClass())
        .as(
            "class of the %s ServiceLoader finds under the name '%s'",
            spi.getSimpleName(), plugin.name())
        .isEqualTo(type);
  }
}
