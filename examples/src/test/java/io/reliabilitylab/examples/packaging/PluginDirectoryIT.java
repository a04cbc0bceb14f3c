package io.reliabilitylab.examples.packaging;

import static org.assertj.core.api.Assertions.assertThat;

import io.reliabilitylab.examples.packaging.PackagedLab.Launch;
import io.reliabilitylab.examples.packaging.PackagedLab.Outcome;
import io.reliabilitylab.record.RunRecord;
import io.reliabilitylab.record.RunRecordReader;
import io.reliabilitylab.runner.discovery.PluginPath;
import io.reliabilitylab.spi.check.CheckResult;
import io.reliabilitylab.spi.check.Verdict;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A plugin jar built outside the reactor, as a plugin author's own build would: the check in {@code
 * src/test/resources/outside-plugin} is compiled at test time against the packaged lab's SPI jar
 * alone, jarred with its services file, and dropped into the {@code plugins/} directory next to a
 * copy of {@code reliability-lab.jar}. The packaged lab lists it with its jar, runs it in a run
 * (its verdict is in the run record), and names a broken jar next to it without losing the others.
 */
class PluginDirectoryIT {

  private static final String CHECK = "current-row-count";
  private static final String SOURCES = "outside-plugin";

  @TempDir static Path build;

  /** The plugin jar, written once; each test lays it out where it needs it. */
  private static Path pluginJar;

  @TempDir Path work;

  @BeforeAll
  static void buildThePluginOutsideTheReactor() throws Exception {
    Path sources = copySources(build.resolve("src"));
    Path classes = Files.createDirectories(build.resolve("classes"));
    Path spi = onlyMatch(PackagedLab.lib(), "reliability-lab-spi-[^/]*\\.jar");
    List<String> javac =
        new ArrayList<>(
            List.of("--release", "17", "-proc:none", "-d", classes.toString(), "-cp", spi + ""));
    try (Stream<Path> files = Files.walk(sources)) {
      files.filter(f -> f.toString().endsWith(".java")).forEach(f -> javac.add(f.toString()));
    }
    JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
    ByteArrayOutputStream diagnostics = new ByteArrayOutputStream();
    int result = compiler.run(null, diagnostics, diagnostics, javac.toArray(String[]::new));
    assertThat(result)
        .as("javac %s%n%s", javac, diagnostics.toString(StandardCharsets.UTF_8))
        .isZero();
    // The services file goes into the jar next to the classes, as the author's build puts it.
    Path services = sources.resolve("META-INF");
    pluginJar = jar(build.resolve("current-row-count.jar"), classes, sources, services);
  }

  @Test
  void aJarInPluginsIsListedWithItsOriginAndItsCheckRunsAndIsRecorded() throws Exception {
    Path lab = labCopy();
    Path installed = Files.copy(pluginJar, lab.resolve("plugins/current-row-count.jar"));

    Outcome list = PackagedLab.run(launch(lab, Map.of()), Duration.ofMinutes(2), work, "list");
    assertThat(list.exitCode()).as("list; stderr: %s", list.err()).isZero();
    assertThat(list.out())
        .containsPattern(
            "(?m)^  "
                + CHECK
                + " +The current table holds as many rows as the source \\(a plugin from"
                + " plugins/\\)\\.  \\[plugin "
                + Pattern.quote(installed.toString())
                + "]$")
        .containsPattern(
            "(?m)^  snapshot-diff +.*\\[built-in reliability-lab-checks-core-[^ ]*\\.jar]$")
        .containsPattern(
            "(?m)^  direct +.*\\[built-in reliability-lab-pipeline-direct-[^ ]*\\.jar]$")
        .contains("Plugin jars (1):" + System.lineSeparator() + "  " + installed);

    Path runs = work.resolve("runs");
    Outcome run =
        PackagedLab.run(
            launch(lab, Map.of()),
            Duration.ofMinutes(3),
            work,
            "run",
            "--pipeline",
            "direct",
            "--faults",
            "none",
            "--events",
            "50",
            "--no-report",
            "--out",
            runs.toString());
    assertThat(run.exitCode()).as("run; stdout: %s%nstderr: %s", run.out(), run.err()).isZero();
    assertThat(run.out()).contains(CHECK);
    List<RunRecord> records = RunRecordReader.readDirectory(runs);
    assertThat(records).hasSize(1);
    CheckResult result =
        records.get(0).checks().stream()
            .filter(check -> check.check().equals(CHECK))
            .findFirst()
            .orElseThrow(
                () -> new AssertionError(CHECK + " is not in the run record: " + run.out()));
    assertThat(result.verdict()).isEqualTo(Verdict.PASSED);
    long expected = result.evidence().count("expected_rows");
    assertThat(expected).as("rows the 50 events left in the source").isPositive();
    assertThat(result.evidence().count("actual_rows")).isEqualTo(expected);
  }

  @Test
  void aBrokenJarIsNamedInOneLineTheOthersAreListedAndRunRefusesToStart() throws Exception {
    Path lab = labCopy();
    Files.copy(pluginJar, lab.resolve("plugins/current-row-count.jar"));
    // A download that went wrong: an HTML page saved under a jar's name.
    Path broken =
        Files.writeString(lab.resolve("plugins/truncated.jar"), "<html>Not Found</html>\n");

    Outcome list = PackagedLab.run(launch(lab, Map.of()), Duration.ofMinutes(2), work, "list");
    assertThat(list.exitCode()).as("list; stderr: %s", list.err()).isEqualTo(2);
    assertThat(list.out()).containsPattern("(?m)^  " + CHECK + " ").contains("snapshot-diff");
    String brokenLine =
        "Plugin jar "
            + broken
            + " is not a jar (ZipException: zip END header not found): replace it with the jar"
            + " your build wrote, or remove it; it was not loaded.";
    assertThat(list.errLines())
        .containsExactly(
            "reliability-lab list: 1 problem(s) with the plugins:", "  - " + brokenLine);

    Path runs = work.resolve("runs");
    Outcome run =
        PackagedLab.run(
            launch(lab, Map.of()),
            Duration.ofMinutes(2),
            work,
            "run",
            "--faults",
            "none",
            "--events",
            "50",
            "--out",
            runs.toString());
    assertThat(run.exitCode()).as("run; stderr: %s", run.err()).isEqualTo(2);
    assertThat(run.errLines()).containsExactly("reliability-lab run: " + brokenLine);
    assertThat(runs).doesNotExist();
  }

  @Test
  void theEnvironmentVariableAndTheOptionNameJarsElsewhere() throws Exception {
    Path lab = labCopy();
    Path elsewhere = Files.createDirectories(work.resolve("elsewhere"));
    Path jar = Files.copy(pluginJar, elsewhere.resolve("row-count.jar"));

    Outcome fromVariable =
        PackagedLab.run(
            launch(lab, Map.of(PluginPath.ENVIRONMENT_VARIABLE, elsewhere.toString())),
            Duration.ofMinutes(2),
            work,
            "list");
    assertThat(fromVariable.exitCode()).as(fromVariable.err()).isZero();
    assertThat(fromVariable.out()).contains("[plugin " + jar + "]");

    Outcome fromOption =
        PackagedLab.run(
            launch(lab, Map.of()),
            Duration.ofMinutes(2),
            work,
            "list",
            "--json",
            "--plugin-path",
            jar.toString());
    assertThat(fromOption.exitCode()).as(fromOption.err()).isZero();
    assertThat(fromOption.out()).contains("\"location\" : \"" + jar + "\"");

    Outcome without = PackagedLab.run(launch(lab, Map.of()), Duration.ofMinutes(2), work, "list");
    assertThat(without.exitCode()).as(without.err()).isZero();
    assertThat(without.out()).doesNotContain(CHECK).contains("Plugin jars: none loaded");
  }

  /**
   * {@code work/lab}: a copy of {@code reliability-lab.jar} with an empty {@code plugins/} and the
   * build's {@code lib/} linked next to it (the manifest's class path is relative to the jar).
   */
  private Path labCopy() throws IOException {
    Path lab = Files.createDirectories(work.resolve("lab"));
    Files.copy(PackagedLab.jar(), lab.resolve("reliability-lab.jar"));
    Files.createSymbolicLink(lab.resolve("lib"), PackagedLab.lib());
    Files.createDirectories(lab.resolve(PluginPath.DIRECTORY));
    return lab;
  }

  private static Launch launch(Path lab, Map<String, String> environment) {
    return new Launch(PackagedLab.currentJava(), lab.resolve("reliability-lab.jar"), environment);
  }

  /** The plugin's sources, copied from the test resources into {@code target}. */
  private static Path copySources(Path target) throws IOException, URISyntaxException {
    Path root = Path.of(PluginDirectoryIT.class.getResource("/" + SOURCES).toURI());
    try (Stream<Path> files = Files.walk(root)) {
      for (Path file : files.filter(Files::isRegularFile).toList()) {
        Path copy = target.resolve(root.relativize(file).toString());
        Files.createDirectories(copy.getParent());
        Files.copy(file, copy, StandardCopyOption.REPLACE_EXISTING);
      }
    }
    return target;
  }

  private static Path onlyMatch(Path directory, String fileNamePattern) throws IOException {
    try (Stream<Path> files = Files.list(directory)) {
      List<Path> matches =
          files.filter(f -> f.getFileName().toString().matches(fileNamePattern)).toList();
      assertThat(matches).as("%s in %s", fileNamePattern, directory).hasSize(1);
      return matches.get(0);
    }
  }

  /**
   * A jar of the files under {@code classes} and under {@code extra} (relative to {@code base}).
   */
  private static Path jar(Path jar, Path classes, Path base, Path extra) throws IOException {
    Manifest manifest = new Manifest();
    manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
    try (OutputStream file = Files.newOutputStream(jar);
        JarOutputStream out = new JarOutputStream(file, manifest)) {
      add(out, classes, classes);
      add(out, base, extra);
    }
    return jar;
  }

  private static void add(JarOutputStream out, Path base, Path tree) throws IOException {
    try (Stream<Path> files = Files.walk(tree)) {
      for (Path file : files.filter(Files::isRegularFile).sorted().toList()) {
        out.putNextEntry(new JarEntry(base.relativize(file).toString().replace('\\', '/')));
        try (InputStream in = Files.newInputStream(file)) {
          in.transferTo(out);
        }
        out.closeEntry();
      }
    }
  }
}
