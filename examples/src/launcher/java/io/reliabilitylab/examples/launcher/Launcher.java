package io.reliabilitylab.examples.launcher;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.io.File;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.URISyntaxException;
import java.net.URL;
import java.security.CodeSource;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * The {@code Main-Class} of {@code reliability-lab.jar}: checks that the JVM is one the lab runs
 * on, tells the command line where the jar is (for its {@code plugins/} directory), then hands over
 * to the harness command line.
 *
 * <p>This class is compiled for Java 8 and must not touch the lab's Java 17 classes before the
 * check; it reaches the command line by reflection for that reason.
 */
@API(status = INTERNAL)
public final class Launcher {

  /** Flink 1.20 needs at least 17. */
  static final int OLDEST_SUPPORTED = 17;

  /** Hadoop 3.3's UserGroupInformation breaks on Java 23+ (Subject APIs removed); 21 is tested. */
  static final int NEWEST_SUPPORTED = 21;

  /** The harness's {@code ExitCode.USAGE_OR_ENVIRONMENT}; that class cannot load on old JVMs. */
  static final int USAGE_OR_ENVIRONMENT = 2;

  static final String COMMAND_LINE = "io.reliabilitylab.harness.cli.ReliabilityLab";

  /**
   * The command line's {@code ReliabilityLab.HOME_PROPERTY}: the directory of this jar, whose
   * {@code plugins/} directory is on the plugin path.
   */
  static final String HOME_PROPERTY = "reliability-lab.home";

  private Launcher() {}

  /** Checks the Java version and runs the command line with {@code args}. */
  public static void main(String[] args) {
    String refusal =
        refusal(
            System.getProperty("java.specification.version", "unknown"),
            System.getProperty("java.version", "unknown"),
            System.getProperty("java.home", "unknown"));
    if (refusal != null) {
      System.err.println(refusal);
      System.exit(USAGE_OR_ENVIRONMENT);
      return;
    }
    if (System.getProperty(HOME_PROPERTY) == null) {
      String home = home(codeLocation());
      if (home != null) {
        System.setProperty(HOME_PROPERTY, home);
      }
    }
    Method main;
    try {
      main = Class.forName(COMMAND_LINE).getMethod("main", String[].class);
    } catch (ReflectiveOperationException | LinkageError e) {
      System.err.println(
          "reliability-lab: cannot start: "
              + e
              + ". Keep the lib/ directory next to reliability-lab.jar, as the build left it.");
      System.exit(USAGE_OR_ENVIRONMENT);
      return;
    }
    try {
      main.invoke(null, (Object) args);
    } catch (InvocationTargetException e) {
      Throwable cause = e.getCause() == null ? e : e.getCause();
      System.err.println("reliability-lab: unexpected error: " + oneLine(cause));
      System.exit(USAGE_OR_ENVIRONMENT);
    } catch (IllegalAccessException e) {
      System.err.println("reliability-lab: cannot start: " + oneLine(e));
      System.exit(USAGE_OR_ENVIRONMENT);
    }
  }

  /**
   * The one line that refuses this JVM, or {@code null} when it is supported.
   *
   * @param specificationVersion {@code java.specification.version}: {@code 1.8}, {@code 17}, ...
   * @param fullVersion {@code java.version}, shown to the user
   * @param javaHome {@code java.home}, shown so the user sees which installation was used
   */
  static @Nullable String refusal(
      String specificationVersion, String fullVersion, String javaHome) {
    int feature = featureVersion(specificationVersion);
    if (feature >= OLDEST_SUPPORTED && feature <= NEWEST_SUPPORTED) {
      return null;
    }
    return "reliability-lab needs Java "
        + OLDEST_SUPPORTED
        + " to "
        + NEWEST_SUPPORTED
        + " but was started with Java "
        + fullVersion
        + " ("
        + javaHome
        + "); run it with a JDK 17 or 21, for example <jdk-17>/bin/java -jar reliability-lab.jar.";
  }

  /** The directory of {@code jar} when it is a jar file; {@code null} otherwise. */
  static @Nullable String home(@Nullable URL jar) {
    if (jar == null || !"file".equals(jar.getProtocol()) || !jar.getPath().endsWith(".jar")) {
      return null;
    }
    try {
      File directory = new File(jar.toURI()).getAbsoluteFile().getParentFile();
      return directory == null ? null : directory.getPath();
    } catch (URISyntaxException | IllegalArgumentException e) {
      return null;
    }
  }

  private static @Nullable URL codeLocation() {
    CodeSource source = Launcher.class.getProtectionDomain().getCodeSource();
    return source == null ? null : source.getLocation();
  }

  /** The feature release number: 8 for {@code 1.8}, 17 for {@code 17}; -1 when unreadable. */
  static int featureVersion(String specificationVersion) {
    String version = specificationVersion.trim();
    if (version.startsWith("1.")) {
      version = version.substring(2);
    }
    int dot = version.indexOf('.');
    if (dot >= 0) {
      version = version.substring(0, dot);
    }
    try {
      return Integer.parseInt(version);
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  // The lab's Failures.oneLineWithTypes, repeated on purpose: the launcher is compiled for Java 8
  // on its own, so that an old JVM can print why it is refused, and must not load lab classes.
  private static String oneLine(Throwable throwable) {
    String text = throwable.toString();
    Throwable root = throwable;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    if (root != throwable) {
      text += "; caused by " + root;
    }
    return text.replaceAll("\\s+", " ").trim();
  }
}
