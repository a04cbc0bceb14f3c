package io.reliabilitylab.report;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.reliabilitylab.record.RunRecord;
import io.reliabilitylab.record.RunRecordReader;
import io.reliabilitylab.record.SuiteSummary;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.stream.Stream;
import org.apiguardian.api.API;

/**
 * The run records ({@code <run_id>.json}) and suite summaries ({@code suite-<suite_id>.json}) of
 * one output directory, oldest first: what a dashboard shows.
 *
 * <p>{@code RunDirectory runs = RunDirectory.read(Path.of("lab-runs"));}
 *
 * @param directory the directory they were read from
 * @param runs the run records, oldest first
 * @param suites the suite summaries, oldest first
 */
@API(status = EXPERIMENTAL)
public record RunDirectory(Path directory, List<RunRecord> runs, List<SuiteSummary> suites) {

  public RunDirectory {
    Objects.requireNonNull(directory, "directory");
    runs = List.copyOf(runs);
    suites = List.copyOf(suites);
  }

  /**
   * Reads every run record and suite summary in {@code directory}.
   *
   * @throws IOException when it is not a directory, holds no run record, or a record cannot be
   *     read; the message names the directory or file and what to do
   */
  public static RunDirectory read(Path directory) throws IOException {
    Objects.requireNonNull(directory, "directory");
    if (!Files.isDirectory(directory)) {
      throw new IOException(
          directory
              + " is not a directory; pass the --out directory of a 'run' (default lab-runs)");
    }
    List<RunRecord> runs = RunRecordReader.readDirectory(directory);
    if (runs.isEmpty()) {
      throw new IOException(
          directory + " holds no run record (<run_id>.json); pass the --out directory of a 'run'");
    }
    List<Path> suiteFiles;
    try (Stream<Path> listing = Files.list(directory)) {
      suiteFiles =
          listing
              .filter(Files::isRegularFile)
              .filter(RunDirectory::isSuiteFile)
              .sorted(Comparator.comparing(path -> path.getFileName().toString()))
              .toList();
    }
    List<SuiteSummary> suites = new ArrayList<>();
    for (Path file : suiteFiles) {
      suites.add(RunRecordReader.readSuite(file));
    }
    return new RunDirectory(directory, runs, suites);
  }

  private static boolean isSuiteFile(Path file) {
    String name = file.getFileName().toString();
    return name.startsWith("suite-") && name.endsWith(".json");
  }
}
