package io.reliabilitylab.harness.cli;

import io.reliabilitylab.checks.EventIdAuditCheck;
import io.reliabilitylab.checks.NoDuplicateKeysCheck;
import io.reliabilitylab.checks.SnapshotDiffCheck;
import io.reliabilitylab.checks.iceberg.IcebergCatalog;
import io.reliabilitylab.checks.iceberg.IcebergTableReader;
import io.reliabilitylab.record.EnvironmentInfo;
import io.reliabilitylab.record.ExitCode;
import io.reliabilitylab.record.RunId;
import io.reliabilitylab.record.RunRecord;
import io.reliabilitylab.record.RunRecordWriter;
import io.reliabilitylab.record.ScenarioInfo;
import io.reliabilitylab.source.jdbc.CdcSource;
import io.reliabilitylab.source.postgres.PostgresSource;
import io.reliabilitylab.spi.check.CheckContext;
import io.reliabilitylab.spi.check.CheckResult;
import io.reliabilitylab.spi.check.EvidenceSample;
import io.reliabilitylab.spi.check.ReconciliationCheck;
import io.reliabilitylab.spi.check.Verdict;
import io.reliabilitylab.spi.data.Column;
import io.reliabilitylab.spi.data.ColumnType;
import io.reliabilitylab.spi.data.DeliverySemantics;
import io.reliabilitylab.spi.data.RowSet;
import io.reliabilitylab.spi.data.TableSchema;
import io.reliabilitylab.spi.pipeline.SnapshotInfo;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.types.Types.NestedField;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code reliability-lab reconcile}: checks an existing source table against an existing Iceberg
 * table, without any pipeline, and writes a run record.
 */
@Command(
    name = "reconcile",
    mixinStandardHelpOptions = true,
    optionListHeading = "%nOptions:%n",
    versionProvider = VersionProvider.class,
    description = {
      "Checks an existing MySQL 8 / MariaDB or PostgreSQL table (schema public) against an"
          + " existing Iceberg table, without any pipeline: reads the source table's columns and primary key, requires the Iceberg"
          + " table to have the same columns, then runs snapshot-diff, no-duplicate-keys and (when"
          + " the table has an event_id column) the current-table part of event-id-audit. Prints"
          + " the verdict with its evidence and writes a run record (JSON) into --out."
          + " --source-jdbc-url and --source-user are required.",
      "Exit code: 0 passed, 1 a check failed, 2 usage or environment error, 3 inconclusive."
    })
final class ReconcileCommand implements Callable<Integer> {

  private static final int SAMPLES_PRINTED = 10;

  @Spec private CommandSpec spec;

  /** Required here: {@link SourceOptions.Existing#open} refuses a missing URL or user. */
  @Mixin private SourceOptions.Existing sourceOptions = new SourceOptions.Existing();

  @Option(
      names = "--source-table",
      required = true,
      description = "The source table in the URL's database, e.g. orders.")
  private String sourceTable = "";

  @Mixin private CatalogOptions catalogOptions = new CatalogOptions();

  @Option(
      names = "--iceberg-table",
      required = true,
      description = "The Iceberg table as namespace.table, e.g. lab.orders_current.")
  private String icebergTable = "";

  @Option(
      names = "--snapshot-id",
      description = "The Iceberg snapshot to check (default: the table's current snapshot).")
  private @Nullable Long snapshotId;

  @Option(
      names = "--semantics",
      defaultValue = "exactly-once",
      description =
          "The delivery semantics the sink claims: exactly-once or at-least-once."
              + " Default: ${DEFAULT-VALUE}.")
  private String semantics = "exactly-once";

  @Option(
      names = "--out",
      defaultValue = "lab-runs",
      description = "Directory for the run record. Default: ${DEFAULT-VALUE}.")
  private Path out = Path.of("lab-runs");

  private final List<String> commandLine;
  private final Clock clock;

  ReconcileCommand(List<String> commandLine) {
    this(commandLine, Clock.systemUTC());
  }

  ReconcileCommand(List<String> commandLine, Clock clock) {
    this.commandLine = commandLine;
    this.clock = clock;
    // Picocli injects the spec before call(); this placeholder is never used.
    this.spec = CommandSpec.create();
  }

  @Override
  public Integer call() throws Exception {
    DeliverySemantics deliverySemantics = parseSemantics();
    TableIdentifier tableId = parseTableId();
    catalogOptions.validate(spec);
    OutputDirectory.require(spec, out);
    CdcSource source = sourceOptions.open(spec);
    try (source) {
      return reconcile(source, tableId, deliverySemantics);
    } catch (EnvironmentProblem e) {
      spec.commandLine().getErr().println(spec.qualifiedName() + ": " + e.getMessage());
      return ExitCode.USAGE_OR_ENVIRONMENT.code();
    }
  }

  private int reconcile(CdcSource source, TableIdentifier tableId, DeliverySemantics semantics)
      throws Exception {
    try {
      catalogOptions.requireWarehouseDirectory();
    } catch (IllegalArgumentException e) {
      throw new EnvironmentProblem(e.getMessage());
    }
    TableSchema sourceSchema = sourceSchema(source);
    try (IcebergCatalog catalog = openCatalog()) {
      if (!catalog.catalog().tableExists(tableId)) {
        throw new EnvironmentProblem(
            "no Iceberg table "
                + tableId
                + " in the "
                + catalog.description()
                + CatalogOptions.tablesIn(catalog, tableId));
      }
      Table table = catalog.catalog().loadTable(tableId);
      requireSameColumns(sourceSchema, table);
      Instant started = clock.instant();
      String runId = RunId.next(started);
      Path spill = Files.createDirectories(out.resolve(runId).resolve("spill"));
      RunRecord.Builder record =
          RunRecord.builder(runId, started)
              .command(commandLine)
              .environment(EnvironmentInfo.capture(source.kind(), false))
              .scenario(
                  ScenarioInfo.of("none", "reconcile", 0, 0, 0)
                      .withVariant(sourceTable + " -> " + tableId))
              .claimBoundary(
                  "Shows whether Iceberg table "
                      + tableId
                      + " at one snapshot holds exactly the rows of source table "
                      + sourceTable
                      + " as read at one consistent point; says nothing about how the rows got"
                      + " there, about the table's changelog, or about any other snapshot.")
              .stackVersion("source", serverVersion(source))
              .configuration("source.kind", source.kind())
              .configuration("source.jdbc-url", source.jdbcUrl())
              .configuration("source.table", sourceTable)
              .configuration("iceberg.table", tableId.toString())
              .configuration("delivery.semantics", semantics.name());

      catalog.recorded().forEach(record::configuration);
      RowSet sourceRows = source.rows(sourceSchema, sourceTable);
      RowSet icebergRows = icebergRows(table, sourceSchema, record);
      PrintWriter printer = spec.commandLine().getOut();
      printer.printf(
          "Reconciling %s%n     against %s ...%n",
          sourceRows.description(), icebergRows.description());
      printer.flush();

      CheckContext context =
          CheckContext.builder(semantics)
              .expectedCurrent(sourceRows)
              .actualCurrent(icebergRows)
              .workDirectory(spill)
              .build();
      List<ReconciliationCheck> checks = new ArrayList<>();
      checks.add(new SnapshotDiffCheck());
      checks.add(new NoDuplicateKeysCheck());
      if (sourceSchema.eventIdColumn() != null) {
        // Without a changelog in the context the audit checks the current table's event ids only.
        checks.add(new EventIdAuditCheck());
      }
      Instant reconcileAt = clock.instant();
      for (ReconciliationCheck check : checks) {
        CheckResult result = check.check(context);
        record.check(result);
        if (check.name().equals(SnapshotDiffCheck.NAME)) {
          record.snapshotDiffCount(result.evidence().count("diff_count"));
        }
      }
      record.timing("reconcile", Duration.between(reconcileAt, clock.instant()));
      RunRecord done = record.finishedAt(clock.instant()).build();
      Path file = new RunRecordWriter(out).write(done);
      print(printer, done, file);
      return done.summary().exitCode().code();
    }
  }

  private RowSet icebergRows(Table table, TableSchema sourceSchema, RunRecord.Builder record) {
    String name = table.name().substring(table.name().lastIndexOf('.') + 1);
    TableSchema schema = sourceSchema.withName(name);
    if (snapshotId == null && table.currentSnapshot() == null) {
      // Nothing committed yet: the table is empty, which the checks judge like any other content.
      record.configuration("iceberg.snapshot-id", "none");
      return RowSet.of(schema, "iceberg " + table.name() + " (no snapshot: empty)", List.of());
    }
    long id = snapshotId == null ? table.currentSnapshot().snapshotId() : snapshotId;
    Snapshot snapshot = table.snapshot(id);
    if (snapshot == null) {
      throw new EnvironmentProblem(
          "Iceberg table "
              + table.name()
              + " has no snapshot "
              + id
              + "; its latest snapshots are "
              + latestSnapshotIds(table));
    }
    SnapshotInfo info = IcebergTableReader.info(table, snapshot);
    record.configuration("iceberg.snapshot-id", Long.toString(id)).snapshot(info);
    return IcebergTableReader.rows(table, id, schema);
  }

  private TableSchema sourceSchema(CdcSource source) {
    List<Column> columns = new ArrayList<>();
    List<String> unsupported = new ArrayList<>();
    Map<Integer, String> key = new TreeMap<>();
    boolean postgres = source instanceof PostgresSource;
    try (Connection connection = source.connect()) {
      DatabaseMetaData metadata = connection.getMetaData();
      // PostgreSQL: the lab reads tables of schema public; MySQL/MariaDB: the URL's database
      String catalog = postgres ? null : source.database();
      String schema = postgres ? PostgresSource.SCHEMA : null;
      try (ResultSet result = metadata.getColumns(catalog, schema, sourceTable, "%")) {
        while (result.next()) {
          String name = result.getString("COLUMN_NAME");
          ColumnType type = columnType(result.getInt("DATA_TYPE"), result.getInt("COLUMN_SIZE"));
          if (type == null) {
            unsupported.add(name + " " + result.getString("TYPE_NAME"));
          } else {
            columns.add(new Column(name, type));
          }
        }
      }
      try (ResultSet result = metadata.getPrimaryKeys(catalog, schema, sourceTable)) {
        while (result.next()) {
          key.put(result.getInt("KEY_SEQ"), result.getString("COLUMN_NAME"));
        }
      }
    } catch (SQLException e) {
      throw new EnvironmentProblem(
          "cannot read the columns of source table "
              + sourceTable
              + " at "
              + source.jdbcUrl()
              + ": "
              + Errors.oneLine(e.getMessage()));
    }
    String where = "source table " + source.database() + "." + sourceTable;
    if (columns.isEmpty() && unsupported.isEmpty()) {
      throw new EnvironmentProblem(
          "no " + where + " at " + source.jdbcUrl() + ": check --source-table and the URL");
    }
    if (!unsupported.isEmpty()) {
      throw new EnvironmentProblem(
          where
              + " has columns of types the lab does not compare: "
              + String.join(", ", unsupported)
              + " (it reads integers, strings, booleans, doubles, decimals and timestamps)");
    }
    if (key.isEmpty()) {
      throw new EnvironmentProblem(
          where + " has no primary key: rows are matched by key, so reconcile needs one");
    }
    String eventId =
        columns.stream().anyMatch(c -> c.name().equals("event_id") && c.type() == ColumnType.BIGINT)
            ? "event_id"
            : null;
    return new TableSchema(sourceTable, columns, List.copyOf(key.values()), eventId);
  }

  private static @Nullable ColumnType columnType(int jdbcType, int size) {
    return switch (jdbcType) {
      case Types.BIGINT -> ColumnType.BIGINT;
      case Types.INTEGER, Types.SMALLINT, Types.TINYINT -> ColumnType.INT;
      case Types.VARCHAR,
          Types.CHAR,
          Types.LONGVARCHAR,
          Types.NVARCHAR,
          Types.NCHAR,
          Types.LONGNVARCHAR ->
          ColumnType.VARCHAR;
      case Types.BOOLEAN -> ColumnType.BOOLEAN;
      case Types.BIT -> size == 1 ? ColumnType.BOOLEAN : null;
      case Types.DOUBLE -> ColumnType.DOUBLE;
      case Types.DECIMAL, Types.NUMERIC -> ColumnType.DECIMAL;
      case Types.TIMESTAMP -> ColumnType.TIMESTAMP;
      default -> null;
    };
  }

  private static void requireSameColumns(TableSchema source, Table table) {
    List<String> differing = new ArrayList<>();
    Map<String, NestedField> iceberg = new LinkedHashMap<>();
    table.schema().columns().forEach(field -> iceberg.put(field.name(), field));
    for (Column column : source.columns()) {
      NestedField field = iceberg.remove(column.name());
      if (field == null) {
        differing.add(column.name() + " (only in the source)");
      } else if (IcebergTableReader.columnType(field.type()) != column.type()) {
        differing.add(
            column.name()
                + " (source "
                + column.type().name().toLowerCase(Locale.ROOT)
                + ", Iceberg "
                + field.type()
                + ")");
      }
    }
    iceberg.values().forEach(field -> differing.add(field.name() + " (only in Iceberg)"));
    List<String> identifiers = new ArrayList<>(table.schema().identifierFieldNames());
    if (!identifiers.isEmpty()
        && !identifiers.stream()
            .sorted()
            .toList()
            .equals(source.keyColumns().stream().sorted().toList())) {
      differing.add(
          "key (source primary key "
              + source.keyColumns()
              + ", Iceberg identifier fields "
              + identifiers
              + ")");
    }
    if (!differing.isEmpty()) {
      throw new EnvironmentProblem(
          "the columns of Iceberg table "
              + table.name()
              + " differ from source table "
              + source.name()
              + ": "
              + String.join(", ", differing));
    }
  }

  /** The catalog the table is in; one that does not answer is an environment problem. */
  private IcebergCatalog openCatalog() {
    try {
      return catalogOptions.open();
    } catch (IllegalArgumentException e) {
      throw new EnvironmentProblem(e.getMessage());
    }
  }

  private static List<Long> latestSnapshotIds(Table table) {
    List<SnapshotInfo> snapshots = IcebergTableReader.snapshots(table);
    return snapshots.subList(Math.max(0, snapshots.size() - 5), snapshots.size()).stream()
        .map(SnapshotInfo::snapshotId)
        .toList();
  }

  private static String serverVersion(CdcSource source) {
    try {
      return source.serverVersion();
    } catch (SQLException e) {
      return "unknown (" + Errors.oneLine(e.getMessage()) + ")";
    }
  }

  private DeliverySemantics parseSemantics() {
    String normalized = semantics.trim().toUpperCase(Locale.ROOT).replace('-', '_');
    for (DeliverySemantics value : DeliverySemantics.values()) {
      if (value.name().equals(normalized)) {
        return value;
      }
    }
    throw new ParameterException(
        spec.commandLine(),
        "--semantics must be exactly-once or at-least-once, got '" + semantics + "'.");
  }

  private TableIdentifier parseTableId() {
    String name = icebergTable.trim();
    int dot = name.lastIndexOf('.');
    if (dot <= 0 || dot == name.length() - 1) {
      throw new ParameterException(
          spec.commandLine(),
          "--iceberg-table must be namespace.table, e.g. lab.orders_current, got '"
              + icebergTable
              + "'.");
    }
    return TableIdentifier.parse(name);
  }

  private static void print(PrintWriter printer, RunRecord record, Path file) {
    printer.printf("%nRun %s: %s%n", record.runId(), record.summary().verdict());
    for (CheckResult check : record.checks()) {
      printer.printf("  %-20s %-12s %s%n", check.check(), check.verdict(), check.summary());
      if (!check.evidence().counts().isEmpty()) {
        printer.println(
            "    counts: "
                + check.evidence().counts().entrySet().stream()
                    .map(entry -> entry.getKey() + "=" + entry.getValue())
                    .collect(Collectors.joining(", ")));
      }
      if (check.verdict() == Verdict.PASSED) {
        continue;
      }
      List<EvidenceSample> samples = check.evidence().samples();
      for (EvidenceSample sample : samples.subList(0, Math.min(SAMPLES_PRINTED, samples.size()))) {
        // snapshot-diff's notes only repeat the two inputs' descriptions printed above.
        printer.println("    " + describe(sample, !check.check().equals(SnapshotDiffCheck.NAME)));
      }
      long more = check.evidence().samplesOmitted() + Math.max(0, samples.size() - SAMPLES_PRINTED);
      if (more > 0) {
        printer.printf("    ... and %d more in the record%n", more);
      }
    }
    printer.printf("Record: %s%n", file);
    printer.flush();
  }

  /** One sample on one line: {@code mismatched order_id=7: status expected 'paid', actual 'x'}. */
  private static String describe(EvidenceSample sample, boolean withNote) {
    StringBuilder line = new StringBuilder(sample.kind()).append(' ').append(sample.subject());
    if (!sample.differingColumns().isEmpty()) {
      line.append(':');
      for (String column : sample.differingColumns()) {
        line.append(' ')
            .append(column)
            .append(" expected ")
            .append(quoted(sample.expected().get(column)))
            .append(", actual ")
            .append(quoted(sample.actual().get(column)))
            .append(';');
      }
      line.setLength(line.length() - 1);
    } else if (withNote && !sample.note().isBlank()) {
      line.append(" (").append(sample.note()).append(')');
    }
    return line.toString();
  }

  private static String quoted(@Nullable String value) {
    return value == null ? "null" : "'" + value + "'";
  }

  /** A problem with the source or the Iceberg table: nothing was judged. */
  private static final class EnvironmentProblem extends RuntimeException {
    private static final long serialVersionUID = 1L;

    EnvironmentProblem(String message) {
      super(message);
    }
  }
}
