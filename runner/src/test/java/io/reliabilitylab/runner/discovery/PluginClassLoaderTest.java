package io.reliabilitylab.runner.discovery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import io.reliabilitylab.checks.SnapshotDiffCheck;
import io.reliabilitylab.runner.discovery.DiscoveryProblem.Reason;
import io.reliabilitylab.runner.discovery.testplugins.TestJars;
import io.reliabilitylab.spi.check.ReconciliationCheck;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.jar.JarFile;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PluginClassLoaderTest {

  private static final ClassLoader LAB = PluginClassLoaderTest.class.getClassLoader();

  @TempDir Path work;

  private Path plugins() throws Exception {
    return Files.createDirectories(work.resolve("plugins"));
  }

  /** A jar with the check {@code jar-check}, class {@code com.example.good.JarCheck}. */
  private Path goodJar(Path directory) throws Exception {
    return TestJars.content()
        .source(
            "com.example.good.JarCheck", TestJars.check("com.example.good.JarCheck", "jar-check"))
        .services(ReconciliationCheck.class, "com.example.good.JarCheck")
        .writeTo(directory.resolve("good.jar"), work);
  }

  /** A library jar with an abstract check that plugins extend; it registers nothing. */
  private Path baseLibrary(Path directory) throws Exception {
    return baseLibraryContent().writeTo(directory.resolve("base-lib.jar"), work);
  }

  private static TestJars.Content baseLibraryContent() {
    return TestJars.content()
        .source(
            "com.example.lib.BaseCheck",
            "package com.example.lib;\n"
                + "import io.reliabilitylab.spi.check.*;\n"
                + "public abstract class BaseCheck implements ReconciliationCheck {\n"
                + "  public String description() { return \"A check built on a library.\"; }\n"
                + "  public CheckResult check(CheckContext context) {\n"
                + "    return CheckResult.passed(name(), \"fine\", Evidence.NONE);\n"
                + "  }\n"
                + "}\n");
  }

  /** A plugin whose check extends the library's {@code BaseCheck}. */
  private Path derivedJar(Path directory, Path library) throws Exception {
    return TestJars.content()
        .source(
            "com.example.derived.DerivedCheck",
            "package com.example.derived;\n"
                + "public final class DerivedCheck extends com.example.lib.BaseCheck {\n"
                + "  public String name() { return \"derived-check\"; }\n"
                + "}\n")
        .compiledAgainst(library)
        .services(ReconciliationCheck.class, "com.example.derived.DerivedCheck")
        .writeTo(directory.resolve("derived.jar"), work);
  }

  @Nested
  class WhenEveryJarIsSound {

    @Test
    void aJarInADirectoryIsDiscoveredNextToTheBuiltIns() throws Exception {
      Path jar = goodJar(plugins());
      try (PluginClassLoader loader = PluginClassLoader.open(PluginPath.of(plugins()), LAB)) {
        assertThat(loader.jars()).containsExactly(jar.toAbsolutePath());
        assertThat(loader.problems()).isEmpty();
        Discovered<ReconciliationCheck> checks = Discovered.checks(loader);
        assertThat(checks.problems()).isEmpty();
        assertThat(checks.names()).contains("jar-check", SnapshotDiffCheck.NAME);
        assertThat(checks.get("jar-check").getClass().getClassLoader()).isSameAs(loader);
      }
    }

    @Test
    void theOriginSaysPluginWithTheJarsPathOrBuiltIn() throws Exception {
      Path jar = goodJar(plugins());
      try (PluginClassLoader loader = PluginClassLoader.open(PluginPath.of(jar), LAB)) {
        Discovered<ReconciliationCheck> checks = Discovered.checks(loader);
        PluginOrigin plugin = PluginOrigin.of(checks.get("jar-check").getClass());
        assertThat(plugin.builtIn()).isFalse();
        assertThat(plugin.location()).isEqualTo(jar.toAbsolutePath().toString());
        assertThat(plugin.text()).isEqualTo("plugin " + jar.toAbsolutePath());

        PluginOrigin builtIn = PluginOrigin.of(checks.get(SnapshotDiffCheck.NAME).getClass());
        assertThat(builtIn.builtIn()).isTrue();
        // From the local repository a jar's name, in a reactor build the module's classes.
        assertThat(builtIn.location()).containsAnyOf("reliability-lab-checks-core", "classes");
        assertThat(builtIn.text()).startsWith("built-in ");
      }
    }

    @Test
    void aPluginMayDependOnALibraryJarOnThePath() throws Exception {
      Path library = baseLibrary(plugins());
      derivedJar(plugins(), library);
      try (PluginClassLoader loader = PluginClassLoader.open(PluginPath.of(plugins()), LAB)) {
        assertThat(loader.problems()).isEmpty();
        assertThat(loader.jars()).hasSize(2);
        assertThat(Discovered.checks(loader).names()).contains("derived-check");
      }
    }

    @Test
    void aJarNamedTwiceLoadsOnce() throws Exception {
      Path jar = goodJar(plugins());
      try (PluginClassLoader loader =
          PluginClassLoader.open(PluginPath.of(plugins(), jar, work.resolve("plugins/.")), LAB)) {
        assertThat(loader.jars()).containsExactly(jar.toAbsolutePath());
        assertThat(Discovered.checks(loader).problems()).isEmpty();
      }
    }

    @Test
    void filesThatAreNoJarsInADirectoryAreIgnored() throws Exception {
      Files.writeString(plugins().resolve("README.txt"), "my plugins");
      Files.createDirectories(plugins().resolve("folder.jar"));
      goodJar(plugins());
      try (PluginClassLoader loader = PluginClassLoader.open(PluginPath.of(plugins()), LAB)) {
        assertThat(loader.problems()).isEmpty();
        assertThat(loader.jars())
            .extracting(Path::getFileName)
            .containsExactly(Path.of("good.jar"));
      }
    }
  }

  @Nested
  class WhenAJarIsBroken {

    @Test
    void eachIsOneLineNamingTheJarWhatIsWrongAndWhatToDoAndTheOthersLoad() throws Exception {
      Path plugins = plugins();
      goodJar(plugins);
      Path notAJar = Files.writeString(plugins.resolve("not-a-jar.jar"), "<html>404</html>");
      Path missingClass =
          TestJars.content()
              .services(ReconciliationCheck.class, "com.example.MissingCheck")
              .writeTo(plugins.resolve("missing-class.jar"), work);
      Path notACheck =
          TestJars.content()
              .services(ReconciliationCheck.class, "java.lang.Object")
              .writeTo(plugins.resolve("not-a-check.jar"), work);
      Path badBytes =
          TestJars.content()
              .entry("com/example/Garbled.class", "not a class".getBytes(StandardCharsets.UTF_8))
              .services(ReconciliationCheck.class, "com.example.Garbled")
              .writeTo(plugins.resolve("bad-bytes.jar"), work);
      // Compiled against a library that is not on the plugin path.
      Path missingDependency = derivedJar(plugins, baseLibrary(work));

      try (PluginClassLoader loader = PluginClassLoader.open(PluginPath.of(plugins), LAB)) {
        assertThat(loader.jars())
            .extracting(Path::getFileName)
            .containsExactly(Path.of("good.jar"));
        assertThat(loader.problems())
            .hasSize(5)
            .allSatisfy(
                problem -> {
                  assertThat(problem.kind()).isEqualTo("plugin jar");
                  assertThat(problem.reason()).isEqualTo(Reason.BROKEN_JAR);
                  assertThat(problem.message())
                      .startsWith("Plugin jar " + plugins)
                      .endsWith("; it was not loaded.")
                      .doesNotContain("\n")
                      .doesNotContain("\tat ");
                });
        assertThat(messages(loader))
            .anySatisfy(
                message ->
                    assertThat(message)
                        .startsWith("Plugin jar " + notAJar + " is not a jar (ZipException")
                        .contains("replace it with the jar your build wrote, or remove it"))
            .anySatisfy(
                message ->
                    assertThat(message)
                        .startsWith(
                            "Plugin jar " + missingClass + " lists com.example.MissingCheck")
                        .contains("META-INF/services/" + ReconciliationCheck.class.getName())
                        .contains("neither the jar nor the lab has that class"))
            .anySatisfy(
                message ->
                    assertThat(message)
                        .startsWith("Plugin jar " + notACheck + " lists java.lang.Object")
                        .contains("which is not a ReconciliationCheck"))
            .anySatisfy(
                message ->
                    assertThat(message)
                        .startsWith("Plugin jar " + badBytes + ": its check com.example.Garbled")
                        .contains("fails to load (ClassFormatError"))
            .anySatisfy(
                message ->
                    assertThat(message)
                        .startsWith(
                            "Plugin jar "
                                + missingDependency
                                + ": its check com.example.derived.DerivedCheck fails to load"
                                + " (NoClassDefFoundError: com/example/lib/BaseCheck)")
                        .contains("put the jars it needs on the plugin path too"));

        Discovered<ReconciliationCheck> checks = Discovered.checks(loader);
        assertThat(checks.names()).contains("jar-check", SnapshotDiffCheck.NAME);
        assertThat(checks.problems()).containsAll(loader.problems());
        assertThatThrownBy(() -> checks.select("jar-check"))
            .isInstanceOf(DiscoveryException.class)
            .hasMessageContaining("not-a-jar.jar");
        // Every kind reports them: the broken jar might have held any of them.
        assertThat(Discovered.faults(loader).problems()).containsAll(loader.problems());
        assertThat(Discovered.pipelines(loader).problems()).containsAll(loader.problems());
      }
    }

    @Test
    void aJarThatNeedsALeftOutJarIsLeftOutToo() throws Exception {
      Path plugins = plugins();
      Path library =
          baseLibraryContent()
              .services(ReconciliationCheck.class, "com.example.lib.NoSuchCheck")
              .writeTo(plugins.resolve("base-lib.jar"), work);
      Path derived = derivedJar(plugins, library);
      try (PluginClassLoader loader = PluginClassLoader.open(PluginPath.of(plugins), LAB)) {
        assertThat(loader.jars()).isEmpty();
        assertThat(messages(loader))
            .satisfiesExactly(
                first -> assertThat(first).startsWith("Plugin jar " + library + " lists"),
                second ->
                    assertThat(second)
                        .startsWith("Plugin jar " + derived + ": its check")
                        .contains("NoClassDefFoundError"));
      }
    }

    @Test
    void aClassForANewerJavaSaysWhichJavaToCompileFor() throws Exception {
      Path compiled = goodJar(work);
      byte[] bytes;
      try (JarFile jar = new JarFile(compiled.toFile())) {
        bytes = jar.getInputStream(jar.getEntry("com/example/good/JarCheck.class")).readAllBytes();
      }
      bytes[6] = 0;
      bytes[7] = (byte) 99; // a class file version no JVM of today reads
      Path future =
          TestJars.content()
              .entry("com/example/good/JarCheck.class", bytes)
              .services(ReconciliationCheck.class, "com.example.good.JarCheck")
              .writeTo(plugins().resolve("future.jar"), work);
      try (PluginClassLoader loader = PluginClassLoader.open(PluginPath.of(future), LAB)) {
        assertThat(messages(loader))
            .singleElement()
            .asString()
            .startsWith("Plugin jar " + future + ": its check com.example.good.JarCheck")
            .contains("fails to load (UnsupportedClassVersionError")
            .contains("compiled for a newer Java than this one (" + Runtime.version().feature())
            .endsWith("): compile it for Java 17; it was not loaded.");
      }
    }

    @Test
    void aPathThatDoesNotExistIsNamed() throws Exception {
      Path missing = work.resolve("no-such.jar");
      try (PluginClassLoader loader = PluginClassLoader.open(PluginPath.of(missing), LAB)) {
        assertThat(messages(loader))
            .singleElement()
            .asString()
            .isEqualTo(
                "The plugin path names "
                    + missing
                    + ", which does not exist: correct the plugin path (--plugin-path,"
                    + " SRL_PLUGIN_PATH).");
      }
    }

    @Test
    void anUnreadableJarIsNamed() throws Exception {
      Path jar = goodJar(plugins());
      Files.setPosixFilePermissions(jar, PosixFilePermissions.fromString("---------"));
      assumeFalse(Files.isReadable(jar), "the file stays readable (tests run as root)");
      try (PluginClassLoader loader = PluginClassLoader.open(PluginPath.of(jar), LAB)) {
        assertThat(messages(loader))
            .singleElement()
            .asString()
            .startsWith("Plugin jar " + jar.toAbsolutePath() + " cannot be read (")
            .contains("make it readable");
      }
    }
  }

  /** Discovery over any class loader names the jar that lists a broken provider. */
  @Nested
  class OnAPlainClassLoader {

    @Test
    void aMissingProviderNamesTheJarThatListsIt() throws Exception {
      Path jar =
          TestJars.content()
              .services(ReconciliationCheck.class, "com.example.MissingCheck")
              .writeTo(work.resolve("lists-missing.jar"), work);
      try (URLClassLoader loader = new URLClassLoader(new URL[] {jar.toUri().toURL()}, LAB)) {
        assertThat(Discovered.checks(loader).problems())
            .extracting(DiscoveryProblem::message)
            .singleElement()
            .asString()
            .isEqualTo(
                "Broken check provider: Provider com.example.MissingCheck not found. Fix or remove "
                    + jar.toAbsolutePath()
                    + ", which lists it in META-INF/services/"
                    + ReconciliationCheck.class.getName()
                    + ".");
      }
    }

    @Test
    void aProviderThatFailsToLoadIsReportedAndTheNextOnesStillLoad() throws Exception {
      Path derived = derivedJar(work, baseLibrary(work.resolve("elsewhere")));
      Path good = goodJar(work);
      try (URLClassLoader loader =
          new URLClassLoader(new URL[] {derived.toUri().toURL(), good.toUri().toURL()}, LAB)) {
        Discovered<ReconciliationCheck> checks = Discovered.checks(loader);
        assertThat(checks.names()).contains("jar-check");
        assertThat(checks.problems())
            .extracting(DiscoveryProblem::message)
            .singleElement()
            .asString()
            .startsWith("Broken check provider: a provider fails to load: NoClassDefFoundError")
            .contains("com/example/lib/BaseCheck");
      }
    }
  }

  private static List<String> messages(PluginClassLoader loader) {
    return loader.problems().stream().map(DiscoveryProblem::message).toList();
  }
}
