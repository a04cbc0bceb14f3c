package io.reliabilitylab.site;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * Replaces include directives in Markdown with fenced code read from source files, so that the code
 * a page shows is the code the build compiled.
 *
 * <p>A directive is a line of its own: {@code <!-- include: path/to/File.java#region -->}. The path
 * is relative to the include root (the repository), unless it starts with an alias prefix, which
 * maps it to another directory. {@code #region} selects the lines between {@code // region name}
 * and the matching {@code // endregion} (also {@code # region} and {@code <!-- region -->} forms);
 * without it the whole file is included. Region markers inside the included text are dropped and
 * the text is de-indented. A missing file or region fails the build with the page and line.
 *
 * <pre>{@code
 * Includes includes = Includes.from(repositoryRoot)
 *     .withAlias("examples/custom-fault", Path.of("src/test/fixtures/custom-fault"));
 * String expanded = includes.expand("writing-a-plugin.md", markdown);
 * }</pre>
 */
@API(status = INTERNAL)
public final class Includes {

  private static final Pattern DIRECTIVE =
      Pattern.compile("^\\s*<!--\\s*include:\\s*([^#\\s]+)(?:#([A-Za-z0-9_.-]+))?\\s*-->\\s*$");
  private static final Pattern REGION_START =
      Pattern.compile("^\\s*(?://|#|<!--)\\s*region\\s+([A-Za-z0-9_.-]+)\\s*(?:-->)?\\s*$");
  private static final Pattern REGION_END =
      Pattern.compile("^\\s*(?://|#|<!--)\\s*endregion(?:\\s+([A-Za-z0-9_.-]+))?\\s*(?:-->)?\\s*$");
  private static final Pattern FENCE = Pattern.compile("^\\s{0,3}(```+|~~~+).*$");

  private final Path root;
  private final Map<String, Path> aliases;

  private Includes(Path root, Map<String, Path> aliases) {
    this.root = root;
    this.aliases = aliases;
  }

  /** Includes resolved against {@code root}, with no aliases. */
  public static Includes from(Path root) {
    return new Includes(
        Objects.requireNonNull(root, "root").toAbsolutePath().normalize(), Map.of());
  }

  /** A copy that reads paths starting with {@code prefix} from {@code directory} instead. */
  public Includes withAlias(String prefix, Path directory) {
    Objects.requireNonNull(prefix, "prefix");
    Objects.requireNonNull(directory, "directory");
    String clean = stripSlashes(prefix);
    if (clean.isEmpty()) {
      throw new IllegalArgumentException(
          "An include alias needs a path prefix, got '" + prefix + "'");
    }
    Map<String, Path> copy = new LinkedHashMap<>(aliases);
    copy.put(clean, directory.toAbsolutePath().normalize());
    return new Includes(root, Map.copyOf(copy));
  }

  /** Whether {@code markdown} has an include directive outside fenced code. */
  public static boolean hasDirective(String markdown) {
    return !directives(markdown).isEmpty();
  }

  /**
   * The Markdown with every directive replaced by a fenced code block.
   *
   * @param page the page's name, for error messages
   * @throws SiteBuildException for a missing file, a missing or unterminated region, or a path that
   *     leaves its base directory
   */
  public String expand(String page, String markdown) {
    Objects.requireNonNull(page, "page");
    Objects.requireNonNull(markdown, "markdown");
    List<String> lines = markdown.lines().toList();
    StringBuilder out = new StringBuilder();
    @Nullable String openFence = null;
    for (int i = 0; i < lines.size(); i++) {
      String line = lines.get(i);
      Matcher fence = FENCE.matcher(line);
      if (fence.matches()) {
        String marker = fence.group(1);
        if (openFence == null) {
          openFence = marker;
        } else if (marker.charAt(0) == openFence.charAt(0)
            && marker.length() >= openFence.length()) {
          openFence = null;
        }
      }
      Matcher directive = DIRECTIVE.matcher(line);
      if (openFence == null && directive.matches()) {
        String where = page + ":" + (i + 1);
        String path = directive.group(1);
        @Nullable String region = directive.group(2);
        String code = read(where, path, region);
        String language = language(path);
        String fenceMarker =
            longestBacktickRun(code) >= 3 ? "`".repeat(longestBacktickRun(code) + 1) : "```";
        out.append(fenceMarker).append(language).append('\n');
        out.append(code);
        if (!code.endsWith("\n")) {
          out.append('\n');
        }
        out.append(fenceMarker).append('\n');
      } else {
        out.append(line).append('\n');
      }
    }
    return out.toString();
  }

  /** The text an include of {@code path} (and {@code region}, if not null) stands for. */
  String read(String where, String path, @Nullable String region) {
    Path file = resolve(where, path);
    if (!Files.isRegularFile(file)) {
      throw new SiteBuildException(
          where
              + ": the included file "
              + path
              + " does not exist (looked for "
              + file
              + "). Fix the path in the include directive, or build the module that holds it.");
    }
    List<String> lines;
    try {
      lines = Files.readAllLines(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new SiteBuildException(where + ": cannot read the included file " + file + ": " + e, e);
    }
    List<String> selected = region == null ? lines : region(where, path, lines, region);
    List<String> kept = new ArrayList<>();
    for (String line : selected) {
      if (!REGION_START.matcher(line).matches() && !REGION_END.matcher(line).matches()) {
        kept.add(line);
      }
    }
    return dedent(trimBlankEdges(kept));
  }

  private Path resolve(String where, String path) {
    String clean = stripSlashes(path);
    Path base = root;
    String rest = clean;
    for (Map.Entry<String, Path> alias : aliases.entrySet()) {
      String prefix = alias.getKey();
      if (clean.equals(prefix) || clean.startsWith(prefix + "/")) {
        base = alias.getValue();
        rest = clean.substring(prefix.length());
        rest = stripSlashes(rest);
        break;
      }
    }
    Path file = base.resolve(rest).normalize();
    if (!file.startsWith(base)) {
      throw new SiteBuildException(
          where + ": the include path " + path + " leaves " + base + "; name a file inside it.");
    }
    return file;
  }

  private static List<String> region(String where, String path, List<String> lines, String name) {
    int start = -1;
    int depth = 0;
    TreeSet<String> available = new TreeSet<>();
    for (int i = 0; i < lines.size(); i++) {
      Matcher begin = REGION_START.matcher(lines.get(i));
      Matcher end = REGION_END.matcher(lines.get(i));
      if (begin.matches()) {
        available.add(begin.group(1));
        if (start >= 0) {
          depth++;
        } else if (begin.group(1).equals(name)) {
          start = i + 1;
          depth = 0;
        }
      } else if (end.matches() && start >= 0) {
        if (depth == 0) {
          @Nullable String endName = end.group(1);
          if (endName != null && !endName.equals(name)) {
            throw new SiteBuildException(
                where
                    + ": region '"
                    + name
                    + "' in "
                    + path
                    + " is closed by '// endregion "
                    + endName
                    + "' at line "
                    + (i + 1)
                    + "; close it with '// endregion' or '// endregion "
                    + name
                    + "'.");
          }
          return lines.subList(start, i);
        }
        depth--;
      }
    }
    if (start >= 0) {
      throw new SiteBuildException(
          where
              + ": region '"
              + name
              + "' in "
              + path
              + " has no '// endregion'; add one after the region's last line.");
    }
    throw new SiteBuildException(
        where
            + ": "
            + path
            + " has no region '"
            + name
            + "' ("
            + (available.isEmpty()
                ? "it has no regions at all"
                : "its regions: " + String.join(", ", available))
            + "). Mark it with '// region "
            + name
            + "' ... '// endregion' or fix the directive.");
  }

  private static List<String> directives(String markdown) {
    List<String> found = new ArrayList<>();
    @Nullable String openFence = null;
    for (String line : markdown.lines().toList()) {
      Matcher fence = FENCE.matcher(line);
      if (fence.matches()) {
        String marker = fence.group(1);
        if (openFence == null) {
          openFence = marker;
        } else if (marker.charAt(0) == openFence.charAt(0)
            && marker.length() >= openFence.length()) {
          openFence = null;
        }
      }
      if (openFence == null && DIRECTIVE.matcher(line).matches()) {
        found.add(line);
      }
    }
    return found;
  }

  private static List<String> trimBlankEdges(List<String> lines) {
    int from = 0;
    int to = lines.size();
    while (from < to && lines.get(from).isBlank()) {
      from++;
    }
    while (to > from && lines.get(to - 1).isBlank()) {
      to--;
    }
    return lines.subList(from, to);
  }

  private static String dedent(List<String> lines) {
    int indent = Integer.MAX_VALUE;
    for (String line : lines) {
      if (!line.isBlank()) {
        int leading = 0;
        while (leading < line.length() && line.charAt(leading) == ' ') {
          leading++;
        }
        indent = Math.min(indent, leading);
      }
    }
    StringBuilder out = new StringBuilder();
    for (String line : lines) {
      out.append(line.isBlank() ? "" : line.substring(indent)).append('\n');
    }
    return out.toString();
  }

  private static int longestBacktickRun(String text) {
    int longest = 0;
    int run = 0;
    for (int i = 0; i < text.length(); i++) {
      run = text.charAt(i) == '`' ? run + 1 : 0;
      longest = Math.max(longest, run);
    }
    return longest;
  }

  private static String language(String path) {
    int dot = path.lastIndexOf('.');
    String extension = dot < 0 ? "" : path.substring(dot + 1);
    return switch (extension) {
      case "java" -> "java";
      case "xml" -> "xml";
      case "json" -> "json";
      case "properties" -> "properties";
      case "sh" -> "bash";
      default -> "";
    };
  }

  private static String stripSlashes(String path) {
    String clean = path.replace('\\', '/');
    while (clean.startsWith("/")) {
      clean = clean.substring(1);
    }
    while (clean.endsWith("/")) {
      clean = clean.substring(0, clean.length() - 1);
    }
    return clean;
  }
}
