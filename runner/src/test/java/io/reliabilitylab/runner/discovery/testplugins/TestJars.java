package io.reliabilitylab.runner.discovery.testplugins;

import static org.assertj.core.api.Assertions.assertThat;

import io.reliabilitylab.spi.Named;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;

/**
 * Writes plugin jars at test time from Java sources compiled against the SPI, so that their classes
 * are on no class path but the jar's own.
 */
public final class TestJars {

  private TestJars() {}

  /** A jar's content: compiled sources plus literal entries (services files, say). */
  public static final class Content {
    private final Map<String, String> sources = new LinkedHashMap<>();
    private final Map<String, byte[]> entries = new LinkedHashMap<>();
    private final List<Path> classPath = new ArrayList<>();

    /** A source file {@code <binaryName>.java} to compile into the jar. */
    public Content source(String binaryName, String code) {
      sources.put(binaryName, code);
      return this;
    }

    /** {@code META-INF/services/<service>} listing {@code implementations}. */
    public Content services(Class<?> service, String... implementations) {
      return entry(
          "META-INF/services/" + service.getName(),
          (String.join("\n", implementations) + "\n").getBytes(StandardCharsets.UTF_8));
    }

    /** An entry with exactly these bytes. */
    public Content entry(String name, byte[] bytes) {
      entries.put(name, bytes);
      return this;
    }

    /** Another jar or directory the sources compile against (they always see the SPI). */
    public Content compiledAgainst(Path jarOrDirectory) {
      classPath.add(jarOrDirectory);
      return this;
    }

    /** Compiles the sources and writes the jar to {@code jar}; {@code work} holds the classes. */
    public Path writeTo(Path jar, Path work) throws IOException {
      Path classes = Files.createTempDirectory(work, "classes");
      if (!sources.isEmpty()) {
        compile(classes);
      }
      Files.createDirectories(jar.toAbsolutePath().getParent());
      try (OutputStream file = Files.newOutputStream(jar);
          JarOutputStream out = new JarOutputStream(file)) {
        try (Stream<Path> files = Files.walk(classes)) {
          for (Path path : files.filter(Files::isRegularFile).sorted().toList()) {
            put(
                out,
                classes.relativize(path).toString().replace('\\', '/'),
                Files.readAllBytes(path));
          }
        }
        for (Map.Entry<String, byte[]> entry : entries.entrySet()) {
          put(out, entry.getKey(), entry.getValue());
        }
      }
      return jar;
    }

    private void compile(Path classes) throws IOException {
      Path sourceDirectory = Files.createTempDirectory(classes.getParent(), "sources");
      List<String> arguments = new ArrayList<>();
      arguments.addAll(List.of("-d", classes.toString(), "-proc:none", "-classpath"));
      List<String> path = new ArrayList<>();
      path.add(location(Named.class).toString());
      classPath.forEach(entry -> path.add(entry.toString()));
      arguments.add(String.join(File.pathSeparator, path));
      for (Map.Entry<String, String> source : sources.entrySet()) {
        Path file = sourceDirectory.resolve(source.getKey().replace('.', '/') + ".java");
        Files.createDirectories(file.getParent());
        Files.writeString(file, source.getValue());
        arguments.add(file.toString());
      }
      JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
      ByteArrayOutputStream diagnostics = new ByteArrayOutputStream();
      int result = compiler.run(null, diagnostics, diagnostics, arguments.toArray(String[]::new));
      assertThat(result)
          .as("javac %s%n%s", arguments, diagnostics.toString(StandardCharsets.UTF_8))
          .isZero();
    }
  }

  public static Content content() {
    return new Content();
  }

  /** The jar or directory {@code type} was loaded from. */
  public static Path location(Class<?> type) {
    try {
      return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI());
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The source of a check named {@code name} in class {@code binaryName}. */
  public static String check(String binaryName, String name) {
    int dot = binaryName.lastIndexOf('.');
    return "package "
        + binaryName.substring(0, dot)
        + ";\n"
        + "import io.reliabilitylab.spi.check.*;\n"
        + "public final class "
        + binaryName.substring(dot + 1)
        + " implements ReconciliationCheck {\n"
        + "  public String name() { return \""
        + name
        + "\"; }\n"
        + "  public String description() { return \"A check from a jar.\"; }\n"
        + "  public CheckResult check(CheckContext context) {\n"
        + "    return CheckResult.passed(name(), \"fine\", Evidence.NONE);\n"
        + "  }\n"
        + "}\n";
  }

  private static void put(JarOutputStream out, String name, byte[] bytes) throws IOException {
    out.putNextEntry(new JarEntry(name));
    out.write(bytes);
    out.closeEntry();
  }
}
