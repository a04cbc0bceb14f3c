package io.reliabilitylab.harness.cli;

import io.reliabilitylab.checks.iceberg.IcebergCatalog;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apache.iceberg.catalog.TableIdentifier;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/**
 * The Iceberg catalog a command reads a table through: a Hadoop warehouse directory or a REST
 * catalog with its client's properties, exactly one of them.
 */
final class CatalogOptions {

  @Option(
      names = "--warehouse",
      description = "The Iceberg warehouse: a Hadoop catalog directory. Give it or --catalog-uri.")
  private @Nullable Path warehouse;

  @Option(
      names = "--catalog-uri",
      description =
          "An Iceberg REST catalog's URI, e.g. http://127.0.0.1:8181, instead of --warehouse.")
  private @Nullable String catalogUri;

  @Option(
      names = "--catalog-property",
      paramLabel = "KEY=VALUE",
      description =
          "A property for the REST catalog's client, repeatable: warehouse, credential, io-impl,"
              + " s3.endpoint, s3.path-style-access, s3.access-key-id, ... Values of secrets"
              + " (credential, token, keys, passwords) are never recorded or printed.")
  private Map<String, String> catalogProperties = new LinkedHashMap<>();

  /** Refuses, as a usage error, neither or both catalogs, and properties for a Hadoop one. */
  void validate(CommandSpec spec) {
    if ((warehouse == null) == (catalogUri == null)) {
      throw new ParameterException(
          spec.commandLine(),
          "Give the Iceberg catalog once: --warehouse DIR (a Hadoop catalog) or --catalog-uri URI"
              + " (a REST catalog), not "
              + (warehouse == null ? "neither" : "both")
              + ".");
    }
    if (warehouse != null && !catalogProperties.isEmpty()) {
      throw new ParameterException(
          spec.commandLine(),
          "--catalog-property is for a REST catalog (--catalog-uri); a Hadoop warehouse takes"
              + " none.");
    }
  }

  /**
   * Refuses a warehouse that is not a directory, before anything is opened or read.
   *
   * @throws IllegalArgumentException in one line naming it
   */
  void requireWarehouseDirectory() {
    if (warehouse != null && !Files.isDirectory(warehouse)) {
      throw new IllegalArgumentException(
          "the Iceberg warehouse "
              + warehouse.toAbsolutePath()
              + " is not a directory: give the Hadoop catalog directory that holds the table");
    }
  }

  /**
   * Opens the catalog.
   *
   * @throws IllegalArgumentException in one line when a REST catalog does not answer
   */
  IcebergCatalog open() {
    return warehouse != null
        ? IcebergCatalog.hadoop(warehouse)
        : IcebergCatalog.rest(Objects.requireNonNull(catalogUri), catalogProperties);
  }

  /** What {@code tableId}'s namespace holds, for the line saying the table is not there. */
  static String tablesIn(IcebergCatalog catalog, TableIdentifier tableId) {
    try {
      List<TableIdentifier> tables = catalog.catalog().listTables(tableId.namespace());
      return tables.isEmpty()
          ? "; namespace " + tableId.namespace() + " holds no table"
          : "; namespace "
              + tableId.namespace()
              + " holds "
              + tables.stream().map(TableIdentifier::toString).sorted().toList();
    } catch (RuntimeException e) {
      return "; namespace " + tableId.namespace() + " does not exist";
    }
  }
}
