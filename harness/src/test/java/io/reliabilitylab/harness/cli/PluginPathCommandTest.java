package io.reliabilitylab.harness.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.reliabilitylab.record.ExitCode;
import io.reliabilitylab.runner.discovery.PluginPath;
import io.reliabilitylab.runner.discovery.testplugins.ScenarioClassLoader;
import io.reliabilitylab.runner.discovery.testplugins.TestJars;
import io.reliabilitylab.spi.check.ReconciliationCheck;
import java.io.File;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The plugin path from the command line: {@code --plugin-path}, and the default path of main. */
class PluginPathCommandTest {

  private static final int USAGE = ExitCode.USAGE_OR_ENVIRONMENT.code();

  @TempDir Path work;

  record Run(int exitCode, String out, String err) {}

  private Run run(PluginPath pluginPath, String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int exitCode =
        new ReliabilityLab(
                new PrintWriter(out),
                new PrintWriter(err),
                ScenarioClassLoader.of("valid"),
                pluginPath)
            .execute(args);
    return new Run(exitCode, out.toString(), err.toString());
  }

  private Path pluginJar(Path directory) throws Exception {
    return TestJars.content()
        .source("com.example.jar.JarCheck", TestJars.check("com.example.jar.JarCheck", "jar-check"))
        .services(ReconciliationCheck.class, "com.example.jar.JarCheck")
        .writeTo(directory.resolve("jar-check.jar"), work);
  }

  private Path notAJar(Path directory) throws Exception {
    Files.createDirectories(directory);
    return Files.writeString(directory.resolve("not-a-jar.jar"), "<html>not found</html>");
  }

  @Test
  void listShowsAPluginFromThePluginPathWithItsJar() throws Exception {
    Path jar = pluginJar(work.resolve("mine"));
    Run run = run(PluginPath.empty(), "list", "--plugin-path", work.resolve("mine").toString());
    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.out())
        .containsPattern(
            "(?m)^  jar-check  A check from a jar\\.  \\[plugin "
                + Pattern.quote(jar.toString())
                + "]$")
        .containsPattern("(?m)^  alpha +The first check, alphabetically\\.  \\[built-in ")
        .contains("Plugin jars (1):\n  " + jar);
  }

  @Test
  void theConstructorsPathComesFirstAndOptionsAddToIt() throws Exception {
    Path first = pluginJar(work.resolve("first"));
    Path second =
        TestJars.content()
            .source(
                "com.example.other.OtherCheck",
                TestJars.check("com.example.other.OtherCheck", "other-check"))
            .services(ReconciliationCheck.class, "com.example.other.OtherCheck")
            .writeTo(work.resolve("second/other.jar"), work);
    Run run =
        run(
            PluginPath.of(work.resolve("first")),
            "list",
            "--json",
            "--plugin-path",
            second.toString());
    assertThat(run.exitCode()).as(run.err()).isZero();
    JsonNode json = new ObjectMapper().readTree(run.out());
    assertThat(json.path("plugin_jars").toString())
        .isEqualTo(new ObjectMapper().writeValueAsString(new String[] {first + "", second + ""}));
    JsonNode jarCheck = json.path("checks").get(2);
    assertThat(jarCheck.path("name").asText()).isEqualTo("jar-check");
    assertThat(json.path("checks").findValuesAsText("name"))
        .containsExactly("alpha", "beta", "jar-check", "other-check");
    assertThat(jarCheck.path("origin").asText()).isEqualTo("plugin");
    assertThat(jarCheck.path("location").asText()).isEqualTo(first.toString());
  }

  @Test
  void aRepeatedOptionAndAPathListBothCount() throws Exception {
    Path jar = pluginJar(work.resolve("a"));
    Path missing = work.resolve("b/none.jar");
    Run run =
        run(
            PluginPath.empty(),
            "list",
            "--plugin-path",
            jar.toString(),
            "--plugin-path",
            work.resolve("c") + File.pathSeparator + missing);
    assertThat(run.exitCode()).isEqualTo(USAGE);
    assertThat(run.out()).contains("jar-check");
    assertThat(run.err())
        .contains("The plugin path names " + work.resolve("c") + ", which does not exist")
        .contains("The plugin path names " + missing + ", which does not exist");
  }

  @Test
  void aBrokenJarIsOneProblemInListWhileTheOthersAreListed() throws Exception {
    Path plugins = work.resolve("plugins");
    pluginJar(plugins);
    Path broken = notAJar(plugins);
    Run run = run(PluginPath.of(plugins), "list");
    assertThat(run.exitCode()).isEqualTo(USAGE);
    assertThat(run.out()).contains("  jar-check  ").contains("  alpha  ");
    assertThat(run.err().lines())
        .containsExactly(
            "reliability-lab list: 1 problem(s) with the plugins:",
            "  - Plugin jar "
                + broken
                + " is not a jar (ZipException: zip END header not found): replace it with the jar"
                + " your build wrote, or remove it; it was not loaded.");
  }

  @Test
  void runRefusesToStartWhileAJarOnThePathIsBroken() throws Exception {
    Path broken = notAJar(work.resolve("plugins"));
    Run run =
        run(
            PluginPath.empty(),
            "run",
            "--plugin-path",
            work.resolve("plugins").toString(),
            "--pipeline",
            "test-pipeline",
            "--out",
            work.resolve("runs").toString());
    assertThat(run.exitCode()).isEqualTo(USAGE);
    assertThat(run.out()).isEmpty();
    assertThat(run.err().lines())
        .singleElement()
        .asString()
        .startsWith("reliability-lab run: Plugin jar " + broken + " is not a jar")
        .endsWith("it was not loaded.");
    assertThat(work.resolve("runs")).doesNotExist();
  }

  @Test
  void theCommandsThatDiscoverTakeTheOptionAndSayWhatItDoes() {
    for (String command : new String[] {"list", "run", "bench", "explore", "replay"}) {
      Run run = run(PluginPath.empty(), command, "--help");
      assertThat(run.out())
          .as(command)
          .contains("--plugin-path=<jars and dirs>")
          .contains("plugins/ directory next to");
    }
    Run report = run(PluginPath.empty(), "report", "--plugin-path", "x", "dir");
    assertThat(report.exitCode()).isEqualTo(USAGE);
    assertThat(report.err()).contains("unknown option '--plugin-path'");
  }

  @Test
  void anOptionValueThatIsNoPathIsAUsageError() {
    Run run = run(PluginPath.empty(), "list", "--plugin-path", "bad\u0000.jar");
    assertThat(run.exitCode()).isEqualTo(USAGE);
    assertThat(run.err()).contains("not a path").contains("See 'reliability-lab list --help'.");
  }

  @Test
  void theContextClassLoaderIsTheLabsAgainAfterwards() throws Exception {
    pluginJar(work.resolve("plugins"));
    ClassLoader before = Thread.currentThread().getContextClassLoader();
    run(PluginPath.of(work.resolve("plugins")), "list");
    assertThat(Thread.currentThread().getContextClassLoader()).isSameAs(before);
  }

  @Test
  void theDefaultPathIsThePluginsDirectoryNextToTheJarThenTheEnvironment() throws Exception {
    Path home = Files.createDirectories(work.resolve("lab"));
    assertThat(ReliabilityLab.defaultPluginPath(home.toString(), null).isEmpty())
        .as("no plugins/ directory yet")
        .isTrue();
    Files.createDirectories(home.resolve("plugins"));
    assertThat(ReliabilityLab.defaultPluginPath(home.toString(), "/x.jar" + File.pathSeparator))
        .isEqualTo(PluginPath.of(home.resolve("plugins"), Path.of("/x.jar")));
    assertThat(ReliabilityLab.defaultPluginPath(null, "/y.jar"))
        .isEqualTo(PluginPath.of(Path.of("/y.jar")));
    assertThat(ReliabilityLab.defaultPluginPath(null, null).isEmpty()).isTrue();
    assertThatThrownBy(() -> ReliabilityLab.defaultPluginPath(null, "a\u0000"))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
