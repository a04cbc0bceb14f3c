package io.reliabilitylab.runner.discovery.testplugins;

import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.Enumeration;
import org.jspecify.annotations.Nullable;

/**
 * Loads classes like the test class path but shows only one scenario's {@code META-INF/services}
 * files, so that a test sees exactly the plugins its scenario registers (and not, say, the built-in
 * checks that are on the test class path too).
 */
public final class ScenarioClassLoader extends ClassLoader {

  private static final String SERVICES = "META-INF/services/";

  private final URLClassLoader scenarioResources;

  private ScenarioClassLoader(URLClassLoader scenarioResources) {
    super(ScenarioClassLoader.class.getClassLoader());
    this.scenarioResources = scenarioResources;
  }

  /** The scenario under {@code src/test/resources/discovery/<name>/}. */
  public static ScenarioClassLoader of(String scenario) {
    URL root = ScenarioClassLoader.class.getResource("/discovery/" + scenario + "/");
    if (root == null) {
      throw new IllegalArgumentException("no test scenario directory discovery/" + scenario);
    }
    // A null parent: the scenario's own files, never the class path's.
    return new ScenarioClassLoader(new URLClassLoader(new URL[] {root}, null));
  }

  @Override
  public Enumeration<URL> getResources(String name) throws IOException {
    if (name.startsWith(SERVICES)) {
      return scenarioResources.getResources(name);
    }
    return super.getResources(name);
  }

  @Override
  public @Nullable URL getResource(String name) {
    if (name.startsWith(SERVICES)) {
      return scenarioResources.getResource(name);
    }
    return super.getResource(name);
  }

  /** A scenario with no services at all. */
  public static ScenarioClassLoader empty() {
    return of("empty");
  }
}
