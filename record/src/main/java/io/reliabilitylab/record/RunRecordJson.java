package io.reliabilitylab.record;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.util.DefaultIndenter;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.core.util.Separators;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.JsonSerializer;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import io.reliabilitylab.spi.data.RowKey;
import io.reliabilitylab.spi.fault.FaultPosition;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The one JSON mapping of run records: snake_case names in declaration order, map keys sorted,
 * instants as ISO-8601 text, durations as whole milliseconds, exit codes as their number, fault
 * positions and row keys as their text form, two-space indentation and {@code \n} line ends on
 * every platform.
 */
final class RunRecordJson {

  private static final Pattern INTEGER = Pattern.compile("-?(0|[1-9]\\d{0,18})");

  private static final ObjectMapper MAPPER = createMapper();

  private static final ObjectWriter PRETTY = createWriter(MAPPER);

  private RunRecordJson() {}

  static ObjectMapper mapper() {
    return MAPPER;
  }

  static ObjectWriter prettyWriter() {
    return PRETTY;
  }

  private static ObjectMapper createMapper() {
    SimpleModule lab = new SimpleModule("reliability-lab-run-record");
    lab.addSerializer(Duration.class, new DurationMillisSerializer());
    lab.addDeserializer(Duration.class, new DurationMillisDeserializer());
    lab.addSerializer(FaultPosition.class, new FaultPositionSerializer());
    lab.addDeserializer(FaultPosition.class, new FaultPositionDeserializer());
    lab.addSerializer(RowKey.class, new RowKeySerializer());
    lab.addDeserializer(RowKey.class, new RowKeyDeserializer());
    lab.addSerializer(ExitCode.class, new ExitCodeSerializer());
    lab.addDeserializer(ExitCode.class, new ExitCodeDeserializer());
    return JsonMapper.builder()
        // registered after JavaTimeModule so that its Duration handling wins
        .addModule(new JavaTimeModule())
        .addModule(lab)
        .propertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
        .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
        .enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS)
        .disable(SerializationFeature.FAIL_ON_EMPTY_BEANS)
        .enable(DeserializationFeature.USE_LONG_FOR_INTS)
        .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
        .enable(DeserializationFeature.FAIL_ON_MISSING_CREATOR_PROPERTIES)
        // a newer minor addition must not stop an older reader; schema_version guards the rest
        .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
        .build();
  }

  private static ObjectWriter createWriter(ObjectMapper mapper) {
    DefaultIndenter indenter = new DefaultIndenter("  ", "\n");
    DefaultPrettyPrinter printer =
        new DefaultPrettyPrinter()
            .withSeparators(
                Separators.createDefaultInstance()
                    .withObjectFieldValueSpacing(Separators.Spacing.AFTER));
    printer.indentObjectsWith(indenter);
    printer.indentArraysWith(indenter);
    return mapper.writer(printer);
  }

  /**
   * Writes a map's entries in the map's own order, for sections whose order carries meaning (an
   * exercise's figures: baseline before pressure); {@code ORDER_MAP_ENTRIES_BY_KEYS} would sort
   * them.
   */
  static final class InsertionOrderSerializer extends JsonSerializer<Map<String, ?>> {
    @Override
    public void serialize(Map<String, ?> value, JsonGenerator gen, SerializerProvider serializers)
        throws IOException {
      gen.writeStartObject(value);
      for (Map.Entry<String, ?> entry : value.entrySet()) {
        serializers.defaultSerializeField(entry.getKey(), entry.getValue(), gen);
      }
      gen.writeEndObject();
    }
  }

  private static final class DurationMillisSerializer extends JsonSerializer<Duration> {
    @Override
    public void serialize(Duration value, JsonGenerator gen, SerializerProvider serializers)
        throws IOException {
      gen.writeNumber(value.toMillis());
    }
  }

  private static final class DurationMillisDeserializer extends JsonDeserializer<Duration> {
    @Override
    public Duration deserialize(JsonParser parser, DeserializationContext context)
        throws IOException {
      if (parser.currentToken() != JsonToken.VALUE_NUMBER_INT) {
        return (Duration)
            context.handleUnexpectedToken(
                Duration.class,
                parser.currentToken(),
                parser,
                "a duration is a whole number of milliseconds");
      }
      return Duration.ofMillis(parser.getLongValue());
    }
  }

  private static final class FaultPositionSerializer extends JsonSerializer<FaultPosition> {
    @Override
    public void serialize(FaultPosition value, JsonGenerator gen, SerializerProvider serializers)
        throws IOException {
      gen.writeString(value.text());
    }
  }

  private static final class FaultPositionDeserializer extends JsonDeserializer<FaultPosition> {
    @Override
    public FaultPosition deserialize(JsonParser parser, DeserializationContext context)
        throws IOException {
      String text = parser.getValueAsString();
      if (text == null) {
        return (FaultPosition)
            context.handleUnexpectedToken(
                FaultPosition.class, parser.currentToken(), parser, "a fault position is text");
      }
      try {
        return FaultPosition.parse(text);
      } catch (IllegalArgumentException e) {
        return (FaultPosition)
            context.handleWeirdStringValue(FaultPosition.class, text, "%s", e.getMessage());
      }
    }
  }

  /** Canonical text parts joined by {@code |}, as {@link RowKey#toString()} writes them. */
  private static final class RowKeySerializer extends JsonSerializer<RowKey> {
    @Override
    public void serialize(RowKey value, JsonGenerator gen, SerializerProvider serializers)
        throws IOException {
      gen.writeString(value.toString());
    }
  }

  /**
   * Reads a key's text back: a part that is an integer becomes a number, a canonical UTC timestamp
   * an instant, anything else text. Keys of text that looks like a number do not survive a round
   * trip; the lab's tables are keyed by numbers.
   */
  private static final class RowKeyDeserializer extends JsonDeserializer<RowKey> {
    @Override
    public RowKey deserialize(JsonParser parser, DeserializationContext context)
        throws IOException {
      String text = parser.getValueAsString();
      if (text == null || text.isEmpty()) {
        return (RowKey)
            context.handleUnexpectedToken(
                RowKey.class, parser.currentToken(), parser, "a row key is non-empty text");
      }
      List<Object> parts = new ArrayList<>();
      for (String part : text.split("\\|", -1)) {
        parts.add(keyPart(part));
      }
      return RowKey.of(parts.toArray());
    }

    private static Object keyPart(String part) {
      if (INTEGER.matcher(part).matches()) {
        try {
          return Long.parseLong(part);
        } catch (NumberFormatException e) {
          return part;
        }
      }
      if (part.length() == 27 && part.endsWith("Z") && part.charAt(10) == 'T') {
        try {
          return Instant.parse(part);
        } catch (DateTimeParseException e) {
          return part;
        }
      }
      return part;
    }
  }

  private static final class ExitCodeSerializer extends JsonSerializer<ExitCode> {
    @Override
    public void serialize(ExitCode value, JsonGenerator gen, SerializerProvider serializers)
        throws IOException {
      gen.writeNumber(value.code());
    }
  }

  private static final class ExitCodeDeserializer extends JsonDeserializer<ExitCode> {
    @Override
    public ExitCode deserialize(JsonParser parser, DeserializationContext context)
        throws IOException {
      if (parser.currentToken() == JsonToken.VALUE_NUMBER_INT) {
        int code = parser.getIntValue();
        for (ExitCode exitCode : ExitCode.values()) {
          if (exitCode.code() == code) {
            return exitCode;
          }
        }
      }
      return (ExitCode)
          context.handleUnexpectedToken(
              ExitCode.class, parser.currentToken(), parser, "an exit code is 0, 1, 2 or 3");
    }
  }
}
