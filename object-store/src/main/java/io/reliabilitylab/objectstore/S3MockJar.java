package io.reliabilitylab.objectstore;

import java.net.URI;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Path;
import org.jspecify.annotations.Nullable;

/** Finds S3Mock's Spring Boot jar ({@code com.adobe.testing:s3mock:exec}) on the class path. */
final class S3MockJar {

  /**
   * A resource only the Spring Boot jar has: the plain {@code s3mock} jar holds the class outside
   * {@code BOOT-INF/}.
   */
  static final String MARKER = "BOOT-INF/classes/com/adobe/testing/s3mock/S3MockApplication.class";

  static final String COORDINATES = "com.adobe.testing:s3mock:4.11.0 (classifier exec)";

  private S3MockJar() {}

  /**
   * The jar's file, found through {@link #MARKER} ({@code java.class.path} does not tell: Surefire
   * and Failsafe hide the class path behind a manifest-only jar).
   */
  static Path locate(@Nullable ClassLoader loader) {
    ClassLoader classLoader = loader != null ? loader : ClassLoader.getSystemClassLoader();
    URL resource = classLoader.getResource(MARKER);
    if (resource == null) {
      throw new IllegalStateException(
          "S3Mock's jar is not on the class path: add "
              + COORDINATES
              + " as a runtime dependency (reliability-lab-object-store declares it)");
    }
    return jarOf(resource);
  }

  /**
   * The file of the jar a {@code jar:file:<path>!/<entry>} URL points into.
   *
   * @throws IllegalStateException if the URL is no such URL (e.g. a directory on the class path or
   *     a jar nested in another jar)
   */
  static Path jarOf(URL resource) {
    String url = resource.toString();
    int separator = url.indexOf("!/");
    if (!"jar".equals(resource.getProtocol())
        || separator < 0
        || !url.startsWith("jar:file:")
        || url.lastIndexOf("!/") != separator) {
      throw new IllegalStateException(
          "S3Mock must be on the class path as a jar file of its own ("
              + COORDINATES
              + "), found "
              + url);
    }
    try {
      return Path.of(new URI(url.substring("jar:".length(), separator)));
    } catch (URISyntaxException | IllegalArgumentException e) {
      throw new IllegalStateException("Cannot tell S3Mock's jar file from " + url, e);
    }
  }
}
