package io.reliabilitylab.harness.cli;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;
import picocli.CommandLine.IVersionProvider;

/** The lab's version, read from the harness jar, and the Java and OS it runs on. */
final class VersionProvider implements IVersionProvider {

  private static final String POM_PROPERTIES =
      "/META-INF/maven/io.reliabilitylab/reliability-lab-harness/pom.properties";

  @Override
  public String[] getVersion() {
    return new String[] {
      ReliabilityLab.NAME + " " + labVersion(),
      "Java "
          + System.getProperty("java.version")
          + " ("
          + System.getProperty("java.vendor")
          + ") at "
          + System.getProperty("java.home"),
      System.getProperty("os.name") + " " + System.getProperty("os.arch")
    };
  }

  static String labVersion() {
    try (InputStream in = VersionProvider.class.getResourceAsStream(POM_PROPERTIES)) {
      if (in != null) {
        Properties properties = new Properties();
        properties.load(in);
        String version = properties.getProperty("version");
        if (version != null && !version.isBlank()) {
          return version;
        }
      }
    } catch (IOException e) {
      // An unreadable jar entry only costs the version number.
    }
    return "(development build)";
  }
}
