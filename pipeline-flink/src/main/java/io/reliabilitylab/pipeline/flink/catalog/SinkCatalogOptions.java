package io.reliabilitylab.pipeline.flink.catalog;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.reliabilitylab.checks.iceberg.IcebergCatalog;
import io.reliabilitylab.checks.iceberg.OrdersTables;
import io.reliabilitylab.checks.iceberg.SinkCatalog;
import io.reliabilitylab.spi.pipeline.LabOptions;
import io.reliabilitylab.spi.pipeline.PipelineConfig;
import io.reliabilitylab.spi.secret.Redactor;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ThreadLocalRandom;
import org.apiguardian.api.API;

/**
 * Reads the sink's catalog from a pipeline's options ({@value LabOptions#SINK_CATALOG}), starting
 * the embedded one when asked, and names the namespace a scenario's tables get in it.
 */
@API(status = INTERNAL)
public final class SinkCatalogOptions {

  /** {@value LabOptions#SINK_CATALOG}: a Hadoop catalog on the scenario's warehouse directory. */
  public static final String HADOOP = "hadoop";

  /** {@value LabOptions#SINK_CATALOG}: the lab's REST catalog over its object store. */
  public static final String EMBEDDED_REST = "embedded-rest";

  /**
   * {@value LabOptions#SINK_CATALOG}: a team's REST catalog at {@value
   * LabOptions#SINK_CATALOG_URI}.
   */
  public static final String REST = "rest";

  /** The choices of {@value LabOptions#SINK_CATALOG}. */
  public static final Set<String> KINDS = Set.of(HADOOP, EMBEDDED_REST, REST);

  /** The file in a scenario's directory that keeps its tables' namespace across restarts. */
  static final String NAMESPACE_FILE = "sink-catalog-namespace";

  private SinkCatalogOptions() {}

  /**
   * The catalog the options ask for.
   *
   * @throws IllegalArgumentException in one line, for an unknown kind or a {@code rest} catalog
   *     without its URI
   */
  public static SinkCatalog catalog(PipelineConfig config) {
    return catalog(config, System.getenv());
  }

  /**
   * As {@link #catalog(PipelineConfig)}, with a REST catalog's secrets read from {@code
   * environment}: {@value #CREDENTIAL_VARIABLE} (an OAuth client's {@code id:secret}) and {@value
   * #TOKEN_VARIABLE} (a bearer token). Secrets are no options: one given as a property is refused.
   */
  static SinkCatalog catalog(PipelineConfig config, Map<String, String> environment) {
    String kind = config.option(LabOptions.SINK_CATALOG, HADOOP).strip().toLowerCase(Locale.ROOT);
    return switch (kind) {
      case HADOOP ->
          SinkCatalog.hadoop(Path.of(config.option(LabOptions.WAREHOUSE_PATH).orElseThrow()));
      case EMBEDDED_REST ->
          EmbeddedSinkCatalog.acquire(
                  Path.of(
                      config
                          .option(LabOptions.SINK_CATALOG_DIRECTORY)
                          .orElse(config.workDirectory().resolve("sink-catalog").toString())))
              .sinkCatalog();
      case REST ->
          SinkCatalog.rest(
              config
                  .option(LabOptions.SINK_CATALOG_URI)
                  .filter(uri -> !uri.isBlank())
                  .orElseThrow(
                      () ->
                          new IllegalArgumentException(
                              LabOptions.SINK_CATALOG
                                  + "=rest needs "
                                  + LabOptions.SINK_CATALOG_URI
                                  + "=<the REST catalog's base URI>")),
              withSecrets(properties(config.options()), environment));
      default ->
          throw new IllegalArgumentException(
              "Unknown "
                  + LabOptions.SINK_CATALOG
                  + " '"
                  + kind
                  + "': choose one of "
                  + String.join(", ", new java.util.TreeSet<>(KINDS)));
    };
  }

  /** The environment variable holding a REST catalog's OAuth client credential. */
  public static final String CREDENTIAL_VARIABLE = "SRL_SINK_CATALOG_CREDENTIAL";

  /** The environment variable holding a REST catalog's bearer token. */
  public static final String TOKEN_VARIABLE = "SRL_SINK_CATALOG_TOKEN";

  /**
   * {@code properties} and the secrets the environment holds; a secret among the properties is
   * refused, since options are recorded and logged (masked, but given on a command line).
   */
  static Map<String, String> withSecrets(
      Map<String, String> properties, Map<String, String> environment) {
    properties.keySet().stream()
        .filter(IcebergCatalog::secret)
        .findFirst()
        .ifPresent(
            name -> {
              throw new IllegalArgumentException(
                  "The REST catalog property "
                      + name
                      + " is a secret, and secrets are no pipeline options: set "
                      + CREDENTIAL_VARIABLE
                      + " (credential) or "
                      + TOKEN_VARIABLE
                      + " (token) in the lab's environment, and the object store's keys as"
                      + " AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY");
            });
    Map<String, String> all = new TreeMap<>(properties);
    Map<String, String> secrets =
        Map.of(CREDENTIAL_VARIABLE, "credential", TOKEN_VARIABLE, "token");
    secrets.forEach(
        (variable, property) ->
            Optional.ofNullable(environment.get(variable))
                .filter(value -> !value.isBlank())
                .ifPresent(
                    value -> {
                      // masked wherever a log line of this JVM would echo it (a client's toString)
                      Redactor.register(value);
                      all.put(property, value);
                    }));
    return all;
  }

  /** The REST catalog's client properties among the options, without their prefix. */
  static Map<String, String> properties(Map<String, String> options) {
    Map<String, String> properties = new TreeMap<>();
    options.forEach(
        (key, value) -> {
          if (key.startsWith(LabOptions.SINK_CATALOG_PROPERTY_PREFIX)) {
            properties.put(key.substring(LabOptions.SINK_CATALOG_PROPERTY_PREFIX.length()), value);
          }
        });
    return properties;
  }

  /**
   * The namespace of the scenario's tables: {@value OrdersTables#NAMESPACE} in a Hadoop warehouse
   * of their own; in a REST catalog, which scenarios and earlier runs share, {@code
   * lab_<scenario>_<random>}, chosen at the scenario's first start and kept in its directory so
   * that a restarted pipeline finds its tables again.
   */
  public static String namespace(PipelineConfig config, SinkCatalog catalog) {
    if (catalog instanceof SinkCatalog.Hadoop) {
      return OrdersTables.NAMESPACE;
    }
    Path file = config.workDirectory().resolve(NAMESPACE_FILE);
    try {
      if (Files.isRegularFile(file)) {
        return Files.readString(file, StandardCharsets.UTF_8).strip();
      }
      String namespace =
          "lab_"
              + sanitized(config.workDirectory().getFileName())
              + "_"
              + HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextInt());
      Files.createDirectories(config.workDirectory());
      Files.writeString(file, namespace + "\n", StandardCharsets.UTF_8);
      return namespace;
    } catch (IOException e) {
      throw new UncheckedIOException(
          "Cannot keep the sink namespace in " + file + ": check the directory's permissions", e);
    }
  }

  /** A directory name as a namespace part: lower-case letters, digits and underscores, short. */
  static String sanitized(Path name) {
    String text = name == null ? "scenario" : name.toString().toLowerCase(Locale.ROOT);
    String clean = text.replaceAll("[^a-z0-9]+", "_").replaceAll("^_+|_+$", "");
    if (clean.isEmpty()) {
      clean = "scenario";
    }
    return clean.length() > 40 ? clean.substring(0, 40) : clean;
  }
}
