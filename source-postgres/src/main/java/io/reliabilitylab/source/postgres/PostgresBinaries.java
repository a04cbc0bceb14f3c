package io.reliabilitylab.source.postgres;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * The PostgreSQL server programs the embedded server runs: {@code $SRL_POSTGRES} (a directory with
 * {@code postgres} and {@code initdb}, or with them under {@code bin/}) when set, else the newest
 * Debian installation under {@code /usr/lib/postgresql/<major>/bin}.
 */
@API(status = EXPERIMENTAL)
public record PostgresBinaries(Path bin, String version) {

  /** The environment variable that names the binaries' directory. */
  public static final String ENVIRONMENT = "SRL_POSTGRES";

  static final Path DEBIAN_ROOT = Path.of("/usr/lib/postgresql");

  private static final Pattern VERSION = Pattern.compile("\\(PostgreSQL\\) (\\S+)");

  /** {@code bin/postgres}. */
  public Path postgres() {
    return bin.resolve("postgres");
  }

  /** {@code bin/initdb}. */
  public Path initdb() {
    return bin.resolve("initdb");
  }

  /** The binaries {@link #ENVIRONMENT} names, else the newest Debian installation. */
  public static PostgresBinaries find() {
    return find(System.getenv(ENVIRONMENT), DEBIAN_ROOT);
  }

  static PostgresBinaries find(@Nullable String configured, Path debianRoot) {
    if (configured != null && !configured.isBlank()) {
      Path given = Path.of(configured.trim());
      Optional<Path> bin =
          List.of(given, given.resolve("bin")).stream()
              .filter(PostgresBinaries::holdsServer)
              .findFirst();
      if (bin.isEmpty()) {
        throw new IllegalStateException(
            ENVIRONMENT
                + "="
                + configured
                + " holds no executable postgres and initdb (nor does its bin/): point it at a"
                + " PostgreSQL installation's bin directory, or unset it to use /usr/lib/postgresql");
      }
      return new PostgresBinaries(bin.get(), versionOf(bin.get()));
    }
    return newestIn(debianRoot)
        .map(bin -> new PostgresBinaries(bin, versionOf(bin)))
        .orElseThrow(
            () ->
                new IllegalStateException(
                    "No PostgreSQL server found under "
                        + debianRoot
                        + "/<major>/bin: install Debian's server (apt-get install postgresql), or"
                        + " set "
                        + ENVIRONMENT
                        + " to a directory with postgres and initdb"));
  }

  /** The {@code <major>/bin} directory with the highest major version that holds a server. */
  static Optional<Path> newestIn(Path root) {
    if (!Files.isDirectory(root)) {
      return Optional.empty();
    }
    List<Path> found = new ArrayList<>();
    try (DirectoryStream<Path> majors = Files.newDirectoryStream(root)) {
      for (Path major : majors) {
        String name = major.getFileName().toString();
        if (name.matches("\\d+") && holdsServer(major.resolve("bin"))) {
          found.add(major.resolve("bin"));
        }
      }
    } catch (IOException e) {
      return Optional.empty();
    }
    return found.stream()
        .max(
            Comparator.comparingInt(
                bin -> Integer.parseInt(bin.getParent().getFileName().toString())));
  }

  private static boolean holdsServer(Path bin) {
    return Files.isExecutable(bin.resolve("postgres")) && Files.isExecutable(bin.resolve("initdb"));
  }

  /** {@code postgres --version}'s number, e.g. {@code 15.14}; "unknown" if it does not tell. */
  static String versionOf(Path bin) {
    try {
      Process process =
          new ProcessBuilder(bin.resolve("postgres").toString(), "--version")
              .redirectErrorStream(true)
              .start();
      process.getOutputStream().close();
      String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      if (!process.waitFor(10, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        return "unknown";
      }
      return parseVersion(output).orElse("unknown");
    } catch (IOException e) {
      return "unknown";
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "unknown";
    }
  }

  static Optional<String> parseVersion(String output) {
    Matcher matcher = VERSION.matcher(output);
    return matcher.find() ? Optional.of(matcher.group(1)) : Optional.empty();
  }

  /** What a run records of the server binaries. */
  public Map<String, String> describe() {
    return Map.of("postgres.bin", bin.toString(), "postgres.version", version);
  }
}
