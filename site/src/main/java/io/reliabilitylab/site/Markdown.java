package io.reliabilitylab.site;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import org.apiguardian.api.API;
import org.commonmark.Extension;
import org.commonmark.ext.gfm.tables.TablesExtension;
import org.commonmark.node.AbstractVisitor;
import org.commonmark.node.Code;
import org.commonmark.node.Heading;
import org.commonmark.node.Link;
import org.commonmark.node.Node;
import org.commonmark.node.Text;
import org.commonmark.parser.Parser;
import org.commonmark.renderer.html.HtmlRenderer;

/**
 * Renders one Markdown page to an HTML fragment with CommonMark (plus GitHub tables): links to
 * {@code .md} pages become links to their {@code .html}, and every heading gets a GitHub-style id
 * so that {@code page.md#some-heading} links keep working.
 */
@API(status = INTERNAL)
public final class Markdown {

  private static final List<Extension> EXTENSIONS = List.of(TablesExtension.create());
  private static final Pattern SCHEME = Pattern.compile("^[A-Za-z][A-Za-z0-9+.-]*:.*");

  private final Parser parser = Parser.builder().extensions(EXTENSIONS).build();

  /** A rendered page: its first top-level heading, its HTML, its heading ids and its links. */
  public record Rendered(String title, String html, Set<String> anchors, List<String> links) {}

  /** Renders {@code markdown}; {@code page} names it in error messages. */
  public Rendered render(String page, String markdown) {
    Node document = parser.parse(markdown);
    Map<Node, String> ids = new IdentityHashMap<>();
    Map<String, Integer> seen = new HashMap<>();
    List<String> links = new ArrayList<>();
    String[] title = {""};
    document.accept(
        new AbstractVisitor() {
          @Override
          public void visit(Heading heading) {
            String text = textOf(heading);
            if (heading.getLevel() == 1 && title[0].isEmpty()) {
              title[0] = text;
            }
            String slug = slug(text);
            int count = seen.merge(slug, 1, Integer::sum);
            ids.put(heading, count == 1 ? slug : slug + "-" + (count - 1));
            visitChildren(heading);
          }

          @Override
          public void visit(Link link) {
            link.setDestination(rewrite(link.getDestination()));
            links.add(link.getDestination());
            visitChildren(link);
          }
        });
    if (title[0].isEmpty()) {
      throw new SiteBuildException(
          page + ": the page has no '# Title' heading; start it with one (it names the page).");
    }
    HtmlRenderer renderer =
        HtmlRenderer.builder()
            .extensions(EXTENSIONS)
            .attributeProviderFactory(
                context ->
                    (node, tagName, attributes) -> {
                      String id = ids.get(node);
                      if (id != null) {
                        attributes.put("id", id);
                      }
                    })
            .build();
    return new Rendered(
        title[0], renderer.render(document), new LinkedHashSet<>(ids.values()), List.copyOf(links));
  }

  /** A link to another page of the site, {@code page.md[#anchor]}, as its HTML counterpart. */
  static String rewrite(String destination) {
    if (isExternal(destination)) {
      return destination;
    }
    int hash = destination.indexOf('#');
    String path = hash < 0 ? destination : destination.substring(0, hash);
    String fragment = hash < 0 ? "" : destination.substring(hash);
    if (path.endsWith(".md")) {
      path = path.substring(0, path.length() - ".md".length()) + ".html";
    }
    return path + fragment;
  }

  /** Whether a link leaves the site: a scheme ({@code https:}, {@code mailto:}) or a host. */
  static boolean isExternal(String destination) {
    return SCHEME.matcher(destination).matches() || destination.startsWith("//");
  }

  /**
   * The id GitHub gives a heading: lower case, punctuation other than {@code -} and {@code _}
   * dropped, spaces as dashes.
   */
  static String slug(String text) {
    StringBuilder slug = new StringBuilder();
    text.strip()
        .toLowerCase(Locale.ROOT)
        .codePoints()
        .forEach(
            c -> {
              if (Character.isLetterOrDigit(c) || c == '-' || c == '_') {
                slug.appendCodePoint(c);
              } else if (c == ' ') {
                slug.append('-');
              }
            });
    return slug.toString();
  }

  /** The first top-level heading of {@code markdown}, if any. */
  Optional<String> title(String markdown) {
    String[] title = {""};
    parser
        .parse(markdown)
        .accept(
            new AbstractVisitor() {
              @Override
              public void visit(Heading heading) {
                if (heading.getLevel() == 1 && title[0].isEmpty()) {
                  title[0] = textOf(heading);
                }
              }
            });
    return title[0].isEmpty() ? Optional.empty() : Optional.of(title[0]);
  }

  private static String textOf(Node node) {
    StringBuilder text = new StringBuilder();
    node.accept(
        new AbstractVisitor() {
          @Override
          public void visit(Text literal) {
            text.append(literal.getLiteral());
          }

          @Override
          public void visit(Code code) {
            text.append(code.getLiteral());
          }
        });
    return text.toString();
  }
}
