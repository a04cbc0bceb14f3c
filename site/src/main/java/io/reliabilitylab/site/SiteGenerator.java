package io.reliabilitylab.site;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * Builds the documentation site: every {@code *.md} in the docs directory, with its include
 * directives expanded, plus the generated {@link Catalogue}, rendered to one self-contained HTML
 * file each (navigation and style inline, nothing fetched over the network). Fails on a page
 * without a title, an include that cannot be resolved, or a link to a page or heading that does not
 * exist.
 *
 * <pre>{@code
 * SiteGenerator.builder(Path.of("site/src/docs"), Path.of("site/target/site"))
 *     .includeRoot(Path.of("."))
 *     .includeAlias("examples/custom-fault", Path.of("examples/custom-fault"))
 *     .build()
 *     .generate();
 * }</pre>
 *
 * <p>The Maven build runs {@link #main} at {@code package} time with {@code --docs=DIR --out=DIR
 * --include-root=DIR [--include-alias=PREFIX=DIR]...}.
 */
@API(status = INTERNAL)
public final class SiteGenerator {

  /** The navigation order of the known pages; any other page follows, by file name. */
  static final List<String> ORDER =
      List.of(
          "index",
          "getting-started",
          "concepts",
          "architecture",
          "catalogue",
          "running",
          "external-systems",
          "broker",
          "runbooks",
          "writing-a-plugin",
          "own-job",
          "explore",
          "negative-controls",
          "packaging");

  private final Path docs;
  private final Path output;
  private final Includes includes;
  private final ClassLoader classLoader;

  private SiteGenerator(Builder builder) {
    this.docs = builder.docs;
    this.output = builder.output;
    Includes configured = Includes.from(builder.includeRoot);
    for (Map.Entry<String, Path> alias : builder.aliases.entrySet()) {
      configured = configured.withAlias(alias.getKey(), alias.getValue());
    }
    this.includes = configured;
    this.classLoader = builder.classLoader;
  }

  /** A generator from the Markdown in {@code docs} to HTML in {@code output}. */
  public static Builder builder(Path docs, Path output) {
    return new Builder(docs, output);
  }

  /** What was written: each page's file name and title, in navigation order. */
  public record Result(Path output, Map<String, String> titles) {}

  /**
   * Renders every page and checks every internal link.
   *
   * @throws SiteBuildException naming the page, the line and what to fix
   */
  public Result generate() {
    Map<String, String> sources = readSources();
    Markdown markdown = new Markdown();
    Map<String, Markdown.Rendered> rendered = new LinkedHashMap<>();
    for (Map.Entry<String, String> source : sources.entrySet()) {
      String page = source.getKey() + ".md";
      rendered.put(
          source.getKey(), markdown.render(page, includes.expand(page, source.getValue())));
    }
    checkLinks(rendered);

    Map<String, String> titles = new LinkedHashMap<>();
    rendered.forEach((name, page) -> titles.put(name + ".html", page.title()));
    try {
      Files.createDirectories(output);
      try (Stream<Path> old = Files.list(output)) {
        for (Path stale : old.filter(p -> p.toString().endsWith(".html")).toList()) {
          Files.delete(stale);
        }
      }
      for (Map.Entry<String, Markdown.Rendered> page : rendered.entrySet()) {
        String html = PageTemplate.page(page.getKey() + ".html", page.getValue(), titles);
        Files.writeString(output.resolve(page.getKey() + ".html"), html, StandardCharsets.UTF_8);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot write the site to " + output + ": " + e, e);
    }
    return new Result(output, titles);
  }

  /** Page name (file name without {@code .md}) to Markdown, in navigation order. */
  private Map<String, String> readSources() {
    if (!Files.isDirectory(docs)) {
      throw new SiteBuildException(
          "The docs directory " + docs + " does not exist; pass the directory of the *.md pages.");
    }
    Map<String, String> byName = new TreeMap<>();
    try (Stream<Path> files = Files.list(docs)) {
      for (Path file : files.filter(p -> p.toString().endsWith(".md")).toList()) {
        String name = file.getFileName().toString();
        byName.put(
            name.substring(0, name.length() - ".md".length()),
            Files.readString(file, StandardCharsets.UTF_8));
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read the docs in " + docs + ": " + e, e);
    }
    String catalogue = Catalogue.PAGE.substring(0, Catalogue.PAGE.length() - ".md".length());
    if (byName.containsKey(catalogue)) {
      throw new SiteBuildException(
          docs.resolve(Catalogue.PAGE)
              + " exists, but the catalogue page is generated from the discovered plugins;"
              + " remove the file or rename it.");
    }
    byName.put(catalogue, Catalogue.discover(classLoader).markdown());
    List<String> names = new ArrayList<>(byName.keySet());
    names.sort(
        Comparator.comparingInt(
                (String name) -> ORDER.contains(name) ? ORDER.indexOf(name) : ORDER.size())
            .thenComparing(Comparator.naturalOrder()));
    Map<String, String> ordered = new LinkedHashMap<>();
    names.forEach(name -> ordered.put(name, byName.get(name)));
    return ordered;
  }

  private static void checkLinks(Map<String, Markdown.Rendered> pages) {
    List<String> broken = new ArrayList<>();
    for (Map.Entry<String, Markdown.Rendered> page : pages.entrySet()) {
      for (String link : page.getValue().links()) {
        String problem = linkProblem(link, page.getKey(), pages);
        if (problem != null) {
          broken.add(page.getKey() + ".md links to '" + link + "': " + problem);
        }
      }
    }
    if (!broken.isEmpty()) {
      throw new SiteBuildException(
          broken.size()
              + " broken link(s) in the docs; link to another page as page.md or"
              + " page.md#heading-id:\n  - "
              + String.join("\n  - ", broken));
    }
  }

  /** What is wrong with an internal link, or null when it leaves the site or resolves. */
  static @Nullable String linkProblem(
      String link, String fromPage, Map<String, Markdown.Rendered> pages) {
    if (Markdown.isExternal(link)) {
      return null;
    }
    int hash = link.indexOf('#');
    String path = hash < 0 ? link : link.substring(0, hash);
    String fragment = hash < 0 ? "" : link.substring(hash + 1);
    String target;
    if (path.isEmpty()) {
      target = fromPage;
    } else if (path.endsWith(".html") && !path.contains("/")) {
      target = path.substring(0, path.length() - ".html".length());
    } else {
      return "only other pages of the site can be linked (page.md), not files outside it;"
          + " for source files name the path in `code` instead";
    }
    Markdown.Rendered page = pages.get(target);
    if (page == null) {
      return "there is no page " + target + ".md";
    }
    Set<String> anchors = page.anchors();
    if (!fragment.isEmpty() && !anchors.contains(fragment)) {
      return "page "
          + target
          + ".md has no heading with id '"
          + fragment
          + "' (its ids: "
          + String.join(", ", anchors)
          + ")";
    }
    return null;
  }

  /**
   * Builds the site from the command line; see the class comment for the arguments. Never calls
   * {@code System.exit}: it runs inside Maven's JVM, where a thrown exception fails the build.
   */
  public static void main(String[] args) {
    @Nullable Path docs = null;
    @Nullable Path out = null;
    @Nullable Path root = null;
    Map<String, Path> aliases = new LinkedHashMap<>();
    for (String arg : args) {
      if (arg.startsWith("--docs=")) {
        docs = Path.of(arg.substring("--docs=".length()));
      } else if (arg.startsWith("--out=")) {
        out = Path.of(arg.substring("--out=".length()));
      } else if (arg.startsWith("--include-root=")) {
        root = Path.of(arg.substring("--include-root=".length()));
      } else if (arg.startsWith("--include-alias=")) {
        String alias = arg.substring("--include-alias=".length());
        int equals = alias.indexOf('=');
        if (equals <= 0) {
          throw new IllegalArgumentException(
              "--include-alias needs PREFIX=DIR, e.g. examples/custom-fault=/path/to/it; got '"
                  + alias
                  + "'");
        }
        aliases.put(alias.substring(0, equals), Path.of(alias.substring(equals + 1)));
      } else {
        throw new IllegalArgumentException(
            "Unknown argument '"
                + arg
                + "'; use --docs=DIR --out=DIR [--include-root=DIR] [--include-alias=PREFIX=DIR]");
      }
    }
    if (docs == null || out == null) {
      throw new IllegalArgumentException("--docs=DIR and --out=DIR are required");
    }
    Builder builder = builder(docs, out);
    if (root != null) {
      builder.includeRoot(root);
    }
    aliases.forEach(builder::includeAlias);
    Result result = builder.build().generate();
    System.out.println(
        "Site: "
            + result.titles().size()
            + " pages in "
            + result.output().toAbsolutePath().normalize()
            + " (open index.html)");
  }

  /** Configures a {@link SiteGenerator}. */
  public static final class Builder {
    private final Path docs;
    private final Path output;
    private Path includeRoot = Path.of(".");
    private final Map<String, Path> aliases = new LinkedHashMap<>();
    private ClassLoader classLoader = SiteGenerator.class.getClassLoader();

    private Builder(Path docs, Path output) {
      this.docs = Objects.requireNonNull(docs, "docs");
      this.output = Objects.requireNonNull(output, "output");
    }

    /** The directory include paths are relative to (the repository); default the working one. */
    public Builder includeRoot(Path root) {
      this.includeRoot = Objects.requireNonNull(root, "root");
      return this;
    }

    /** Reads include paths starting with {@code prefix} from {@code directory}. */
    public Builder includeAlias(String prefix, Path directory) {
      aliases.put(Objects.requireNonNull(prefix, "prefix"), Objects.requireNonNull(directory));
      return this;
    }

    /** Where the catalogue discovers plugins; default this class's loader. */
    public Builder classLoader(ClassLoader loader) {
      this.classLoader = Objects.requireNonNull(loader, "loader");
      return this;
    }

    public SiteGenerator build() {
      return new SiteGenerator(this);
    }
  }
}
