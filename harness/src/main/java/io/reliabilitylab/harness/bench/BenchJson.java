package io.reliabilitylab.harness.bench;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import java.io.UncheckedIOException;

/** The bench report's JSON: snake_case names in declaration order, instants as ISO-8601 text. */
final class BenchJson {

  private static final ObjectMapper MAPPER =
      JsonMapper.builder()
          .addModule(new JavaTimeModule())
          .propertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
          .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
          .enable(SerializationFeature.INDENT_OUTPUT)
          .serializationInclusion(JsonInclude.Include.NON_NULL)
          .build();

  private BenchJson() {}

  static String write(BenchReport report) {
    try {
      ObjectNode json = MAPPER.valueToTree(report);
      json.set("targets", MAPPER.valueToTree(BenchTargets.of(report)));
      return MAPPER.writeValueAsString(json).replace("\r\n", "\n");
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException("Cannot write the bench report as JSON", e);
    }
  }

  static ObjectMapper mapper() {
    return MAPPER;
  }
}
