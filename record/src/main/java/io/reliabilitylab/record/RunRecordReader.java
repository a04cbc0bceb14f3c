package io.reliabilitylab.record;

import static org.apiguardian.api.API.Status.STABLE;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.stream.Stream;
import org.apiguardian.api.API;

/**
 * Reads run records and suite summaries back, for {@code report} and {@code replay}. A file that is
 * not a record of this schema version is refused with a message that names the file and what is
 * wrong.
 *
 * <p>{@code List<RunRecord> runs = RunRecordReader.readDirectory(outputDir);}
 */
@API(status = STABLE)
public final class RunRecordReader {

  private RunRecordReader() {}

  /** Reads one run record file. */
  public static RunRecord read(Path file) throws IOException {
    return parse(readText(file), RunRecord.class, file.toString());
  }

  /** Reads one suite summary file. */
  public static SuiteSummary readSuite(Path file) throws IOException {
    return parse(readText(file), SuiteSummary.class, file.toString());
  }

  /** Reads a document written by {@link RunRecordWriter#writeDocument} as {@code type}. */
  public static <T> T readDocument(Path file, Class<T> type) throws IOException {
    try {
      return RunRecordJson.mapper().readValue(readText(file), type);
    } catch (JsonProcessingException e) {
      throw new IOException(
          file + " is not a valid " + type.getSimpleName() + ": " + e.getOriginalMessage(), e);
    }
  }

  /** Reads a run record from its JSON text. */
  public static RunRecord fromJson(String json) throws IOException {
    return parse(json, RunRecord.class, "run record");
  }

  /** Reads a suite summary from its JSON text. */
  public static SuiteSummary suiteFromJson(String json) throws IOException {
    return parse(json, SuiteSummary.class, "suite summary");
  }

  /**
   * Reads every run record ({@code <run_id>.json}) in a directory, oldest first; suite summaries
   * and other files are ignored.
   */
  public static List<RunRecord> readDirectory(Path directory) throws IOException {
    Objects.requireNonNull(directory, "directory");
    if (!Files.isDirectory(directory)) {
      throw new NoSuchFileException(
          directory.toString(), null, "not a directory of run records; pass the run output dir");
    }
    List<Path> files;
    try (Stream<Path> listing = Files.list(directory)) {
      files =
          listing
              .filter(Files::isRegularFile)
              .filter(RunRecordReader::isRecordFile)
              .sorted(Comparator.comparing(path -> path.getFileName().toString()))
              .toList();
    }
    List<RunRecord> records = new ArrayList<>(files.size());
    for (Path file : files) {
      records.add(read(file));
    }
    return records;
  }

  /** Whether a file's name is that of a run record: {@code <run_id>.json}. */
  public static boolean isRecordFile(Path file) {
    String name = file.getFileName().toString();
    return name.endsWith(".json") && RunId.isValid(name.substring(0, name.length() - 5));
  }

  private static String readText(Path file) throws IOException {
    Objects.requireNonNull(file, "file");
    try {
      return Files.readString(file);
    } catch (NoSuchFileException e) {
      throw new NoSuchFileException(file.toString(), null, "no such run record file");
    }
  }

  private static <T> T parse(String json, Class<T> type, String source) throws IOException {
    JsonNode tree;
    try {
      tree = RunRecordJson.mapper().readTree(json);
    } catch (JsonProcessingException e) {
      throw new IOException(source + " is not valid JSON: " + e.getOriginalMessage(), e);
    }
    if (tree == null || !tree.isObject()) {
      throw new IOException(source + " is not a JSON object, so not a run record");
    }
    JsonNode version = tree.get("schema_version");
    if (version == null || !version.canConvertToInt()) {
      throw new IOException(
          source + " has no schema_version, so it was not written by the reliability lab");
    }
    if (version.intValue() != RunRecord.SCHEMA_VERSION) {
      throw new IOException(
          source
              + " has schema_version "
              + version.asText()
              + "; this lab reads version "
              + RunRecord.SCHEMA_VERSION
              + " — use the lab release that wrote it");
    }
    try {
      return RunRecordJson.mapper().treeToValue(tree, type);
    } catch (JsonProcessingException e) {
      throw new IOException(
          source + " is not a valid " + type.getSimpleName() + ": " + e.getOriginalMessage(), e);
    }
  }
}
