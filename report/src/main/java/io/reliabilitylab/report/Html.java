package io.reliabilitylab.report;

import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * Escaping and the few element shapes the dashboard repeats. Every number taken from a JSON
 * document is written by {@link #number} with the document and the JSON pointer it came from, so
 * that a test can compare the page with the JSON.
 */
final class Html {

  private Html() {}

  /** The text with {@code & < > " '} escaped, safe in element content and quoted attributes. */
  static String escape(@Nullable Object value) {
    if (value == null) {
      return "";
    }
    String text = value.toString();
    StringBuilder escaped = new StringBuilder(text.length() + 16);
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      switch (c) {
        case '&' -> escaped.append("&amp;");
        case '<' -> escaped.append("&lt;");
        case '>' -> escaped.append("&gt;");
        case '"' -> escaped.append("&quot;");
        case '\'' -> escaped.append("&#39;");
        default -> escaped.append(c);
      }
    }
    return escaped.toString();
  }

  /**
   * A number from a JSON document: {@code <span class="num" data-run="id"
   * data-field="/summary/snapshot_diff_count">5</span>}.
   */
  static String number(Source source, String pointer, Object value) {
    return "<span class=\"num\" "
        + source.attributes()
        + " data-field=\""
        + escape(pointer)
        + "\">"
        + escape(value)
        + "</span>";
  }

  /** A number the page computed (not in any JSON document), marked as such. */
  static String derived(Object value) {
    return "<span class=\"num derived\">" + escape(value) + "</span>";
  }

  /** A verdict badge: {@code <span class="badge failed">FAILED</span>}. */
  static String badge(String verdict) {
    String upper = verdict.toUpperCase(Locale.ROOT);
    return "<span class=\"badge "
        + cssClass(upper)
        + "\" data-verdict=\""
        + escape(upper)
        + "\">"
        + escape(upper)
        + "</span>";
  }

  /** The CSS class of a verdict: {@code passed}, {@code failed} or {@code inconclusive}. */
  static String cssClass(String verdict) {
    return switch (verdict.toUpperCase(Locale.ROOT)) {
      case "PASSED" -> "passed";
      case "FAILED" -> "failed";
      default -> "inconclusive";
    };
  }

  /** A JSON pointer (RFC 6901) from its reference tokens: names and array indexes. */
  static String pointer(Object... tokens) {
    StringBuilder pointer = new StringBuilder();
    for (Object token : tokens) {
      pointer.append('/').append(token.toString().replace("~", "~0").replace("/", "~1"));
    }
    return pointer.toString();
  }

  /**
   * The JSON document a number comes from: a run record ({@code data-run}) or a suite summary
   * ({@code data-suite}), each named by its id.
   */
  record Source(String attribute, String id) {

    static Source run(String runId) {
      return new Source("data-run", runId);
    }

    static Source suite(String suiteId) {
      return new Source("data-suite", suiteId);
    }

    String attributes() {
      return attribute + "=\"" + escape(id) + "\"";
    }
  }
}
