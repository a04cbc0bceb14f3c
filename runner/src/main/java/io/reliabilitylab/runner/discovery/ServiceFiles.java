package io.reliabilitylab.runner.discovery;

import io.reliabilitylab.spi.Failures;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Enumeration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Which {@code META-INF/services} files list a provider, so that a problem names the jar. */
final class ServiceFiles {

  private static final Logger LOG = LoggerFactory.getLogger(ServiceFiles.class);

  private ServiceFiles() {}

  /**
   * The jars (or directories) whose {@code services} file lists a class named in {@code message},
   * so that a problem names the file to fix; empty when none can be told.
   */
  static List<String> listing(String services, ClassLoader classLoader, String message) {
    Set<String> places = new LinkedHashSet<>();
    try {
      Enumeration<URL> files = classLoader.getResources(services);
      while (files.hasMoreElements()) {
        URL file = files.nextElement();
        try (BufferedReader reader =
            new BufferedReader(new InputStreamReader(file.openStream(), StandardCharsets.UTF_8))) {
          boolean lists =
              reader
                  .lines()
                  .map(entry -> entry.replaceFirst("#.*", "").strip())
                  .anyMatch(entry -> !entry.isEmpty() && namedIn(message, entry));
          if (lists) {
            places.add(place(file, services));
          }
        }
      }
    } catch (IOException | UncheckedIOException e) {
      // The problem is reported anyway, only without the jar's name.
      LOG.debug("Cannot tell which jar lists the provider: {}", Failures.named(e));
    }
    return List.copyOf(places);
  }

  private static boolean namedIn(String message, String className) {
    int at = message.indexOf(className);
    while (at >= 0) {
      int end = at + className.length();
      boolean startsWord = at == 0 || Character.isWhitespace(message.charAt(at - 1));
      boolean endsWord = end == message.length() || !isClassNameChar(message.charAt(end));
      if (startsWord && endsWord) {
        return true;
      }
      at = message.indexOf(className, at + 1);
    }
    return false;
  }

  private static boolean isClassNameChar(char c) {
    return Character.isJavaIdentifierPart(c) || c == '.' || c == '$';
  }

  /** {@code /lab/plugins/x.jar} for {@code jar:file:/lab/plugins/x.jar!/META-INF/...}. */
  private static String place(URL file, String services) {
    String text = file.toString();
    try {
      if ("jar".equals(file.getProtocol())) {
        String inner = text.substring("jar:".length(), text.lastIndexOf("!/"));
        return Path.of(new URI(inner)).toString();
      }
      if ("file".equals(file.getProtocol()) && text.endsWith(services)) {
        return Path.of(new URI(text.substring(0, text.length() - services.length()))).toString();
      }
    } catch (URISyntaxException | IllegalArgumentException | IndexOutOfBoundsException e) {
      // Not a file: name the URL as it is.
    }
    return text;
  }
}
