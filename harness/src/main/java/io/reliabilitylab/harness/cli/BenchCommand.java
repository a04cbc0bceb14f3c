package io.reliabilitylab.harness.cli;

import io.reliabilitylab.harness.bench.Bench;
import io.reliabilitylab.harness.bench.BenchConfig;
import io.reliabilitylab.harness.bench.BenchMode;
import io.reliabilitylab.harness.bench.BenchReport;
import io.reliabilitylab.harness.bench.BenchTargets;
import io.reliabilitylab.record.ExitCode;
import io.reliabilitylab.record.RunId;
import io.reliabilitylab.runner.discovery.Discovered;
import io.reliabilitylab.source.jdbc.CdcSource;
import io.reliabilitylab.spi.pipeline.LabOptions;
import io.reliabilitylab.spi.pipeline.PipelineProvider;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeoutException;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.Spec;

/** {@code reliability-lab bench}: measures a pipeline against its source and prints JSON. */
@Command(
    name = "bench",
    mixinStandardHelpOptions = true,
    optionListHeading = "%nOptions:%n",
    versionProvider = VersionProvider.class,
    description = {
      "Measures a pipeline on one source (an embedded MariaDB unless --source-jdbc-url is given):"
          + " per transaction mode, the source's own write rate, the pipeline's throughput and its"
          + " ratio to it, the initial snapshot's speed, insert-to-visible latency at half the"
          + " throughput, reconciliation speed against a plain read, and peak heap. With --sustain"
          + " and --rate it also offers a fixed rate and samples the lag once a second.",
      "Prints one JSON document on standard output (progress goes to standard error) and writes"
          + " it into --out. Exit code: 0 measured, 1 the pipeline missed a deadline, 2 usage or"
          + " environment error."
    })
final class BenchCommand implements Callable<Integer> {

  @Spec private CommandSpec spec;

  @Option(
      names = "--pipeline",
      defaultValue = "direct",
      description = "The pipeline to bench, by name (see 'list'). Default: ${DEFAULT-VALUE}.")
  private String pipeline = "direct";

  @Option(
      names = "--mode",
      defaultValue = "both",
      description =
          "Transaction mode: 'single' (one change per commit), 'batched' (--changes-per-commit"
              + " per commit) or 'both'. Default: ${DEFAULT-VALUE}.")
  private String mode = "both";

  @Option(
      names = "--events",
      defaultValue = "1000000",
      description =
          "Change events of the batched throughput phase (and of the backlog). Default:"
              + " ${DEFAULT-VALUE}, --quick: 20000. The latency phase writes twice as many more.")
  private int events = 1_000_000;

  @Option(
      names = "--single-events",
      description = "Change events of the single-row throughput phase. Default: --events / 5.")
  private @Nullable Integer singleEvents;

  @Option(
      names = "--latency-duration",
      defaultValue = "8s",
      converter = DurationConverter.class,
      description =
          "The latency phase offers half the measured throughput for about this long (at most"
              + " twice the throughput phase's events). Default: ${DEFAULT-VALUE}.")
  private Duration latencyDuration = Duration.ofSeconds(8);

  @Option(
      names = "--initial-rows",
      defaultValue = "1000000",
      description =
          "Rows in the table before the pipeline starts (the initial snapshot). Default:"
              + " ${DEFAULT-VALUE}, --quick: 10000.")
  private int initialRows = 1_000_000;

  @Option(
      names = "--changes-per-commit",
      defaultValue = "2000",
      description =
          "Changes per source commit in the batched mode. Default: ${DEFAULT-VALUE}, --quick:"
              + " 500.")
  private int changesPerCommit = 2000;

  @Option(
      names = "--quick",
      description =
          "Small sizes for a smoke test or CI (a minute, not the figures at scale): --events"
              + " 20000, --initial-rows 10000, --changes-per-commit 500, --latency-duration 4s,"
              + " each unless given.")
  private boolean quick;

  @Option(
      names = "--seed",
      defaultValue = "42",
      description = "Workload seed. Default: ${DEFAULT-VALUE}.")
  private long seed = 42;

  @Option(
      names = "--sustain",
      converter = DurationConverter.class,
      description =
          "Also offer --rate events/s for this long (e.g. 5m) and report whether the lag stayed"
              + " bounded.")
  private @Nullable Duration sustain;

  @Option(names = "--rate", description = "Events per second offered during --sustain.")
  private @Nullable Double rate;

  @Option(
      names = "--compare-sink-catalog",
      paramLabel = "CATALOG",
      description =
          "Bench again with the tables in this sink catalog (as --sink-catalog takes it:"
              + " hadoop, embedded-rest, rest=<URI>), same pipeline, source and sizes, and print"
              + " both benches' figures side by side; e.g. --compare-sink-catalog embedded-rest.")
  private @Nullable String compareSinkCatalog;

  @Option(
      names = "--out",
      defaultValue = "lab-bench",
      description =
          "Directory for the JSON report and, while it runs, the pipeline's files."
              + " Default: ${DEFAULT-VALUE}.")
  private Path out = Path.of("lab-bench");

  @Mixin private SourceOptions sourceOptions = new SourceOptions();

  @Mixin private PipelineOptions pipelineOptions = new PipelineOptions();

  private final ClassLoader pluginClassLoader;

  BenchCommand(ClassLoader pluginClassLoader) {
    this.pluginClassLoader = pluginClassLoader;
    // Picocli injects the spec before call(); this placeholder is never used.
    this.spec = CommandSpec.create();
  }

  @Override
  public Integer call() throws Exception {
    BenchConfig config = config();
    PipelineProvider provider =
        Discovered.pipelines(pluginClassLoader).requireNoProblems().get(pipeline);
    PrintWriter printer = spec.commandLine().getOut();
    PrintWriter progress = spec.commandLine().getErr();
    OutputDirectory.require(spec, out);
    try (CdcSource source = sourceOptions.open()) {
      progress.printf("bench: %s on %s (%s)%n", pipeline, source.kind(), source.jdbcUrl());
      progress.flush();
      BenchReport report;
      BenchReport compared = null;
      try {
        report = bench(source, provider, config, out);
        if (compareSinkCatalog != null) {
          progress.printf("bench: again with the sink catalog %s%n", compareSinkCatalog);
          progress.flush();
          compared =
              bench(
                  source,
                  provider,
                  config.withPipelineOptions(comparedOptions(config)),
                  out.resolve("compared-sink-catalog"));
        }
      } catch (TimeoutException e) {
        progress.println(spec.qualifiedName() + ": " + Errors.oneLine(e));
        return ExitCode.FAILED.code();
      }
      Path file = write(report);
      progress.print(BenchTargets.table(BenchTargets.of(report)));
      progress.println("bench: report written to " + file);
      if (compared == null) {
        printer.println(report.toJson());
      } else {
        Path comparedFile = write(compared);
        String first = catalogOf(config.pipelineOptions());
        String second = catalogOf(comparedOptions(config));
        String table =
            BenchTargets.comparison(
                first, BenchTargets.of(report), second, BenchTargets.of(compared));
        Path tableFile = out.resolve(baseName(report) + "-sink-catalogs.txt");
        Files.writeString(tableFile, table, StandardCharsets.UTF_8);
        progress.print(table);
        progress.println(
            "bench: the "
                + second
                + " bench written to "
                + comparedFile
                + ", the two side by side to "
                + tableFile);
        // one document: both reports, by sink catalog
        printer.println(
            "{\"sink_catalogs\":{\""
                + first
                + "\":"
                + report.toJson()
                + ",\""
                + second
                + "\":"
                + compared.toJson()
                + "}}");
      }
      printer.flush();
      progress.flush();
      return ExitCode.PASSED.code();
    }
  }

  private BenchReport bench(
      CdcSource source, PipelineProvider provider, BenchConfig config, Path directory)
      throws Exception {
    return Bench.builder(source, provider, config)
        .workDirectory(directory)
        .progress(spec.commandLine().getErr())
        .build()
        .run();
  }

  private Path write(BenchReport report) throws IOException {
    Path file = out.resolve(baseName(report) + ".json");
    Files.createDirectories(out);
    Files.writeString(file, report.toJson() + "\n", StandardCharsets.UTF_8);
    return file;
  }

  private static String baseName(BenchReport report) {
    return "bench-" + RunId.next(report.startedAt());
  }

  /** The bench's pipeline options with the compared sink catalog in place of its own. */
  Map<String, String> comparedOptions(BenchConfig config) {
    Map<String, String> options = new LinkedHashMap<>(config.pipelineOptions());
    options.keySet().removeIf(key -> key.startsWith(LabOptions.SINK_CATALOG));
    options.putAll(PipelineOptions.sinkCatalogOptions(Objects.requireNonNull(compareSinkCatalog)));
    return options;
  }

  /** The sink catalog's kind that pipeline options name: hadoop unless they say otherwise. */
  static String catalogOf(Map<String, String> options) {
    return options.getOrDefault(LabOptions.SINK_CATALOG, "hadoop");
  }

  /** The bench's settings from the options; a wrong combination is a usage error. */
  BenchConfig config() {
    if (quick) {
      applyQuickSizes();
    }
    if (events < 1) {
      throw usage("--events must be at least 1, got " + events + ".");
    }
    int single = singleEvents != null ? singleEvents : Math.max(1, events / 5);
    if (single < 1) {
      throw usage("--single-events must be at least 1, got " + single + ".");
    }
    if (latencyDuration.isZero() || latencyDuration.isNegative()) {
      throw usage("--latency-duration must be positive, got " + latencyDuration + ".");
    }
    if (initialRows < 0) {
      throw usage("--initial-rows must be >= 0, got " + initialRows + ".");
    }
    if (changesPerCommit < 1) {
      throw usage("--changes-per-commit must be at least 1, got " + changesPerCommit + ".");
    }
    if ((sustain == null) != (rate == null)) {
      throw usage("--sustain and --rate go together: e.g. --sustain 5m --rate 50000.");
    }
    if (sustain != null && (sustain.isZero() || sustain.isNegative())) {
      throw usage("--sustain must be a positive duration, got " + sustain + ".");
    }
    if (rate != null && !(rate > 0 && Double.isFinite(rate))) {
      throw usage("--rate must be a positive number of events per second, got " + rate + ".");
    }
    BenchConfig.Builder builder =
        BenchConfig.builder()
            .pipeline(pipeline)
            .modes(modes())
            .batchedEvents(events)
            .singleEvents(single)
            .latencyDuration(latencyDuration)
            .initialRows(initialRows)
            .seed(seed)
            .changesPerCommit(changesPerCommit)
            .pipelineOptions(pipelineOptions.asOptions())
            .catchUpTimeout(pipelineOptions.catchUpTimeout())
            .checkpointInterval(pipelineOptions.checkpointInterval());
    if (sustain != null && rate != null) {
      builder.sustain(sustain, rate);
    }
    return builder.build();
  }

  private void applyQuickSizes() {
    ParseResult given = spec.commandLine().getParseResult();
    if (!given.hasMatchedOption("--events")) {
      events = 20_000;
    }
    if (!given.hasMatchedOption("--initial-rows")) {
      initialRows = 10_000;
    }
    if (!given.hasMatchedOption("--changes-per-commit")) {
      changesPerCommit = 500;
    }
    if (!given.hasMatchedOption("--latency-duration")) {
      latencyDuration = Duration.ofSeconds(4);
    }
  }

  private Set<BenchMode> modes() {
    return switch (mode.strip().toLowerCase(Locale.ROOT)) {
      case "single" -> EnumSet.of(BenchMode.SINGLE);
      case "batched" -> EnumSet.of(BenchMode.BATCHED);
      case "both" -> EnumSet.allOf(BenchMode.class);
      default -> throw usage("--mode must be single, batched or both, got '" + mode + "'.");
    };
  }

  private ParameterException usage(String message) {
    return new ParameterException(spec.commandLine(), message);
  }
}
