package io.reliabilitylab.site;

import java.util.Map;

/** The HTML around a rendered page: title, inline style and the navigation, nothing external. */
final class PageTemplate {

  static final String SITE_TITLE = "Streaming Reliability Lab";

  private static final String STYLE =
      """
      body{margin:0;font:16px/1.55 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;\
      color:#1d2329;background:#fff;display:flex;min-height:100vh}
      nav{flex:0 0 15rem;background:#f4f6f8;border-right:1px solid #dde2e7;padding:1.2rem 1rem}
      nav .site{font-weight:700;display:block;margin-bottom:1rem;color:#1d2329;text-decoration:none}
      nav ul{list-style:none;margin:0;padding:0}
      nav li a{display:block;padding:.25rem .5rem;border-radius:4px;color:#2c5282;\
      text-decoration:none}
      nav li a:hover{background:#e4e9ef}
      nav li a[aria-current=page]{background:#2c5282;color:#fff}
      main{flex:1;max-width:60rem;padding:1.5rem 2.5rem;min-width:0}
      h1,h2,h3{line-height:1.25}h2{border-bottom:1px solid #dde2e7;padding-bottom:.2rem}
      a{color:#2c5282}
      code{font:.9em ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;background:#f0f2f4;\
      padding:.1em .3em;border-radius:3px}
      pre{background:#f6f8fa;border:1px solid #dde2e7;border-radius:6px;padding:.8rem 1rem;\
      overflow-x:auto}
      pre code{background:none;padding:0}
      td code{white-space:nowrap}
      table{border-collapse:collapse;margin:1rem 0;display:block;overflow-x:auto}
      th,td{border:1px solid #dde2e7;padding:.35rem .6rem;text-align:left;vertical-align:top}
      th{background:#f4f6f8}
      @media (max-width:50rem){body{display:block}nav{border-right:none;\
      border-bottom:1px solid #dde2e7}}
      """;

  private PageTemplate() {}

  /** The full HTML document for {@code file}, with {@code titles} (file to title) as navigation. */
  static String page(String file, Markdown.Rendered page, Map<String, String> titles) {
    StringBuilder html = new StringBuilder();
    html.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n");
    html.append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n");
    html.append("<title>")
        .append(escape(page.title()))
        .append(" · ")
        .append(SITE_TITLE)
        .append("</title>\n");
    html.append("<style>\n").append(STYLE).append("</style>\n</head>\n<body>\n");
    html.append("<nav aria-label=\"Documentation\">\n<a class=\"site\" href=\"index.html\">")
        .append(SITE_TITLE)
        .append("</a>\n<ul>\n");
    titles.forEach(
        (target, title) -> {
          html.append("<li><a href=\"").append(target).append('"');
          if (target.equals(file)) {
            html.append(" aria-current=\"page\"");
          }
          html.append('>').append(escape(label(title))).append("</a></li>\n");
        });
    html.append("</ul>\n</nav>\n<main>\n").append(page.html()).append("</main>\n");
    html.append("</body>\n</html>\n");
    return html.toString();
  }

  /** The navigation label: a title up to its first colon ("Running the lab: …" → "Running …"). */
  static String label(String title) {
    int colon = title.indexOf(':');
    return colon > 0 ? title.substring(0, colon).strip() : title;
  }

  static String escape(String text) {
    return text.replace("&", "&amp;")
        .replace("<", "&lt;")
        .replace(">", "&gt;")
        .replace("\"", "&quot;");
  }
}
