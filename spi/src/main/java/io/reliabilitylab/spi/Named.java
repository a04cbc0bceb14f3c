package io.reliabilitylab.spi;

import static org.apiguardian.api.API.Status.STABLE;

import org.apiguardian.api.API;

/**
 * Something the lab discovers with {@link java.util.ServiceLoader} and selects by name: a fault, a
 * check or a pipeline.
 */
@API(status = STABLE)
public interface Named {

  /**
   * Kebab-case identifier, unique among the implementations of one SPI on the classpath, for
   * example {@code task-failure}; users type it on the command line.
   */
  String name();

  /** One line that says what this does, shown by {@code reliability-lab list}. */
  String description();

  /** Whether {@code name} is lower-case kebab-case: letters, digits and single dashes. */
  static boolean isValidName(String name) {
    return name.matches("[a-z][a-z0-9]*(-[a-z0-9]+)*");
  }
}
