package io.reliabilitylab.junit;

import java.lang.reflect.Method;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * The test a scenario runs for: where its runs go and the command its records name.
 *
 * @param lab the resources of its test class
 * @param runDirectory {@code <runs>/<test class>/<test method>}
 * @param command {@code junit <test class>#<test method>}
 */
record CurrentTest(LabResources lab, Path runDirectory, List<String> command) {

  CurrentTest {
    Objects.requireNonNull(lab, "lab");
    Objects.requireNonNull(runDirectory, "runDirectory");
    command = List.copyOf(command);
  }

  /** The defaults for {@code method} of {@code testClass}, its runs under {@code runs}. */
  static CurrentTest of(LabResources lab, Path runs, Class<?> testClass, Method method) {
    String className = classNameWithoutPackage(testClass);
    return new CurrentTest(
        lab,
        runs.resolve(className).resolve(method.getName()),
        List.of("junit", className + "#" + method.getName()));
  }

  /** {@code Outer$Inner} for a nested class: unique within its package, and readable. */
  private static String classNameWithoutPackage(Class<?> testClass) {
    String name = testClass.getName();
    return name.substring(name.lastIndexOf('.') + 1);
  }
}
