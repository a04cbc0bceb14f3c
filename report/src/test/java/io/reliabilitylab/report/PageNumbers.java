package io.reliabilitylab.report;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The numbers a dashboard page shows with their source ({@code data-run} or {@code data-suite} and
 * the JSON pointer in {@code data-field}), read from its HTML or from Chromium's dump of its DOM,
 * and compared with the JSON files they name.
 */
final class PageNumbers {

  private static final Pattern NUMBER =
      Pattern.compile("<(span|tspan)\\s+([^>]*\\bdata-field=\"[^\"]*\"[^>]*)>([^<]*)</\\1>");
  private static final Pattern ATTRIBUTE = Pattern.compile("([a-z-]+)=\"([^\"]*)\"");

  private PageNumbers() {}

  /** One number on the page. */
  record Shown(String document, String pointer, String text) {}

  /** Every number on the page that names its JSON document and pointer. */
  static List<Shown> read(String html) {
    List<Shown> shown = new ArrayList<>();
    Matcher matcher = NUMBER.matcher(html);
    while (matcher.find()) {
      Map<String, String> attributes = new HashMap<>();
      Matcher attribute = ATTRIBUTE.matcher(matcher.group(2));
      while (attribute.find()) {
        attributes.put(attribute.group(1), unescape(attribute.group(2)));
      }
      String document =
          attributes.containsKey("data-run")
              ? attributes.get("data-run") + ".json"
              : "suite-" + attributes.get("data-suite") + ".json";
      shown.add(new Shown(document, attributes.get("data-field"), unescape(matcher.group(3))));
    }
    return shown;
  }

  /** Asserts that each number equals the value its pointer names in its JSON file. */
  static void assertEqualToJson(List<Shown> numbers, Path directory) throws IOException {
    ObjectMapper mapper = new ObjectMapper();
    Map<String, JsonNode> documents = new HashMap<>();
    for (Shown number : numbers) {
      JsonNode document = documents.get(number.document());
      if (document == null) {
        document = mapper.readTree(directory.resolve(number.document()).toFile());
        documents.put(number.document(), document);
      }
      JsonNode value = document.at(number.pointer());
      assertThat(value.isNumber())
          .as("%s %s is a number in the JSON, got %s", number.document(), number.pointer(), value)
          .isTrue();
      assertThat(number.text())
          .as("%s %s", number.document(), number.pointer())
          .isEqualTo(value.asText());
    }
  }

  private static String unescape(String text) {
    return text.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&amp;", "&");
  }
}
