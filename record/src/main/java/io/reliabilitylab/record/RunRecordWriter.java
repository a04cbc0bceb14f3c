package io.reliabilitylab.record;

import static org.apiguardian.api.API.Status.STABLE;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import io.reliabilitylab.spi.secret.Redactor;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Objects;
import org.apiguardian.api.API;

/**
 * Writes run records as {@code <dir>/<run_id>.json} and suite summaries as {@code
 * <dir>/suite-<suite_id>.json}: pretty-printed UTF-8 with a stable key order, so that two records
 * diff cleanly. A file is written to a temporary name and moved into place, so a reader never sees
 * half a record.
 *
 * <p>{@code Path file = new RunRecordWriter(outputDir).write(record);}
 */
@API(status = STABLE)
public final class RunRecordWriter {

  private final Path directory;

  /** A writer into {@code directory}, created when the first record is written. */
  public RunRecordWriter(Path directory) {
    this.directory = Objects.requireNonNull(directory, "directory");
  }

  /** The directory records are written to. */
  public Path directory() {
    return directory;
  }

  /** Where the record of {@code runId} is written. */
  public Path recordFile(String runId) {
    return directory.resolve(RunId.requireValid(runId) + ".json");
  }

  /** Where the summary of {@code suiteId} is written. */
  public Path suiteFile(String suiteId) {
    return directory.resolve("suite-" + RunId.requireValid(suiteId) + ".json");
  }

  /** Writes the record and returns its file; an existing record of the same run is replaced. */
  public Path write(RunRecord record) throws IOException {
    Objects.requireNonNull(record, "record");
    return writeAtomically(recordFile(record.runId()), toJson(record));
  }

  /** Writes the suite summary and returns its file. */
  public Path writeSuite(SuiteSummary summary) throws IOException {
    Objects.requireNonNull(summary, "summary");
    return writeAtomically(suiteFile(summary.suiteId()), toJson(summary));
  }

  /**
   * Writes another document of a run (an explorer's report, a case to replay) into {@code fileName}
   * of the directory, in the records' JSON conventions and with secrets masked.
   */
  public Path writeDocument(String fileName, Object document) throws IOException {
    Objects.requireNonNull(document, "document");
    return writeAtomically(directory.resolve(fileName), serialize(document));
  }

  /** The record as the JSON text written to its file. */
  public static String toJson(RunRecord record) {
    return serialize(record);
  }

  /** The suite summary as the JSON text written to its file. */
  public static String toJson(SuiteSummary summary) {
    return serialize(summary);
  }

  private static String serialize(Object value) {
    try {
      // Last line of defence: a registered secret that reached evidence samples or free text is
      // masked in string values only, never in keys or structure, so the record always reads back.
      JsonNode tree = RunRecordJson.mapper().valueToTree(value);
      return RunRecordJson.prettyWriter().writeValueAsString(maskRegistered(tree)) + "\n";
    } catch (JsonProcessingException | IllegalArgumentException e) {
      throw new IllegalStateException("Could not serialise " + value.getClass().getSimpleName(), e);
    }
  }

  private static JsonNode maskRegistered(JsonNode node) {
    if (node.isTextual()) {
      String masked = Redactor.redactRegistered(node.textValue());
      return masked.equals(node.textValue()) ? node : TextNode.valueOf(masked);
    }
    if (node instanceof ObjectNode object) {
      object.properties().forEach(field -> field.setValue(maskRegistered(field.getValue())));
    } else if (node instanceof ArrayNode array) {
      for (int i = 0; i < array.size(); i++) {
        array.set(i, maskRegistered(array.get(i)));
      }
    }
    return node;
  }

  private Path writeAtomically(Path target, String json) throws IOException {
    Files.createDirectories(directory);
    Path temporary = Files.createTempFile(directory, "." + target.getFileName(), ".tmp");
    try {
      Files.writeString(temporary, json, StandardCharsets.UTF_8);
      try {
        Files.move(
            temporary, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      } catch (AtomicMoveNotSupportedException e) {
        Files.move(temporary, target, StandardCopyOption.REPLACE_EXISTING);
      }
    } finally {
      Files.deleteIfExists(temporary);
    }
    return target;
  }
}
