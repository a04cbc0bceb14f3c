package io.reliabilitylab.report;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.reliabilitylab.record.RunRecord;
import io.reliabilitylab.record.RunRecordReader;
import io.reliabilitylab.record.SuiteSummary;
import io.reliabilitylab.spi.Failures;
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
 * @param unreadable files that looked like records or summaries but could not be read, each with
 *     why ({@code "20261201T...json: not valid JSON ..."}): shown, never fatal
 */
@API(status = EXPERIMENTAL)
public record RunDirectory(
    Path directory, List<RunRecord> runs, List<SuiteSummary> suites, List<String> unreadable) {

  public RunDirectory {
    Objects.requireNonNull(directory, "directory");
    runs = List.copyOf(runs);
    suites = List.copyOf(suites);
    unreadable = List.copyOf(unreadable);
  }

  /** A directory whose every file could be read. */
  public RunDirectory(Path directory, List<RunRecord> runs, List<SuiteSummary> suites) {
    this(directory, runs, suites, List.of());
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
    List<Path> files;
    try (Stream<Path> listing = Files.list(directory)) {
      files =
          listing
              .filter(Files::isRegularFile)
              .sorted(Comparator.comparing(path -> path.getFileName().toString()))
              .toList();
    }
    List<RunRecord> runs = new ArrayList<>();
    List<SuiteSummary> suites = new ArrayList<>();
    List<String> unreadable = new ArrayList<>();
    for (Path file : files) {
      try {
        if (isSuiteFile(file)) {
          suites.add(RunRecordReader.readSuite(file));
        } else if (RunRecordReader.isRecordFile(file)) {
          runs.add(RunRecordReader.read(file));
        }
      } catch (IOException | RuntimeException e) {
        // One damaged file (a lab killed mid-write, a hand edit) must not hide the others.
        unreadable.add(file.getFileName() + ": " + Failures.oneLine(e.getMessage()));
      }
    }
    if (runs.isEmpty()) {
      throw new IOException(
          directory
              + (unreadable.isEmpty()
                  ? " holds no run record (<run_id>.json)"
                  : " holds no readable run record (<run_id>.json); unreadable: "
                      + String.join("; ", unreadable))
              + "; pass the --out directory of a 'run'");
    }
    return new RunDirectory(directory, runs, suites, unreadable);
  }

  private static boolean isSuiteFile(Path file) {
    String name = file.getFileName().toString();
    return name.startsWith("suite-") && name.endsWith(".json");
  }
}
