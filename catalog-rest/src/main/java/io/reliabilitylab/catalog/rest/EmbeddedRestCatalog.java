package io.reliabilitylab.catalog.rest;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.CatalogProperties;
import org.apache.iceberg.CatalogUtil;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.rest.RESTCatalogAdapter;
import org.apache.iceberg.rest.RESTCatalogServlet;
import org.apiguardian.api.API;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An Iceberg REST catalog the lab runs in its own JVM: Iceberg's reference servlet ({@code
 * RESTCatalogServlet} over {@code RESTCatalogAdapter}, published with iceberg-core's tests) on
 * Jetty, listening on a free port of the loopback interface only. Behind it a JDBC catalog on an
 * SQLite file in {@code directory}: a commit swaps a table's metadata location with a conditional
 * update, so concurrent committers conflict and retry through the service, as they do against a
 * team's own catalog. Table files go under {@code directory/warehouse}, or under an object store's
 * location through its FileIO.
 *
 * <pre>{@code
 * try (EmbeddedRestCatalog catalog = EmbeddedRestCatalog.start(directory)) {
 *   RESTCatalog client = new RESTCatalog();
 *   client.initialize("warehouse", Map.of(CatalogProperties.URI, catalog.uri()));
 * }
 * }</pre>
 */
@API(status = EXPERIMENTAL)
public final class EmbeddedRestCatalog implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(EmbeddedRestCatalog.class);
  private static final String LOOPBACK = "127.0.0.1";

  private final Server server;
  private final CommitResponseLoss servlet;
  private final Catalog backend;
  private final Path directory;
  private final String uri;
  private final AtomicBoolean closed = new AtomicBoolean();

  private EmbeddedRestCatalog(
      Server server, CommitResponseLoss servlet, Catalog backend, Path directory, String uri) {
    this.server = server;
    this.servlet = servlet;
    this.backend = backend;
    this.directory = directory;
    this.uri = uri;
  }

  /**
   * Starts a catalog whose database and warehouse live in {@code directory} (created if absent).
   */
  public static EmbeddedRestCatalog start(Path directory) {
    Path warehouse =
        Objects.requireNonNull(directory, "directory")
            .toAbsolutePath()
            .normalize()
            .resolve("warehouse");
    try {
      Files.createDirectories(warehouse);
    } catch (IOException e) {
      throw new UncheckedIOException(
          "Cannot create the REST catalog's directory " + directory + ": check its permissions", e);
    }
    return start(directory, warehouse.toUri().toString(), Map.of());
  }

  /**
   * Starts a catalog whose database lives in {@code directory} and whose tables go under {@code
   * warehouseLocation} (an {@code s3://bucket/prefix}, say), written through the FileIO that {@code
   * ioProperties} configure ({@code io-impl}, endpoint, credentials); empty: Hadoop's file systems.
   */
  public static EmbeddedRestCatalog start(
      Path directory, String warehouseLocation, Map<String, String> ioProperties) {
    Objects.requireNonNull(directory, "directory");
    Objects.requireNonNull(warehouseLocation, "warehouseLocation");
    Objects.requireNonNull(ioProperties, "ioProperties");
    Path absolute = directory.toAbsolutePath().normalize();
    try {
      Files.createDirectories(absolute);
    } catch (IOException e) {
      throw new UncheckedIOException(
          "Cannot create the REST catalog's directory " + absolute + ": check its permissions", e);
    }
    Catalog backend = backend(absolute.resolve("catalog.db"), warehouseLocation, ioProperties);
    Server server = new Server(new InetSocketAddress(LOOPBACK, 0));
    ServletContextHandler context = new ServletContextHandler(ServletContextHandler.NO_SESSIONS);
    CommitResponseLoss servlet =
        new CommitResponseLoss(new RESTCatalogServlet(new RESTCatalogAdapter(backend)));
    context.addServlet(new ServletHolder(servlet), "/*");
    server.setHandler(context);
    try {
      server.start();
    } catch (Exception e) {
      closeQuietly(backend);
      throw new IllegalStateException(
          "The embedded Iceberg REST catalog did not start: " + e.getMessage(), e);
    }
    ServerConnector connector = (ServerConnector) server.getConnectors()[0];
    int port = connector.getLocalPort();
    // listening again after an outage must reopen the same port
    connector.setPort(port);
    String uri = "http://" + LOOPBACK + ":" + port;
    LOG.info(
        "Embedded Iceberg REST catalog at {} (JDBC catalog on SQLite, warehouse {})",
        uri,
        warehouseLocation);
    return new EmbeddedRestCatalog(server, servlet, backend, absolute, uri);
  }

  /**
   * The catalog behind the service: Iceberg's JDBC catalog on an SQLite file (one file, so that the
   * pool's connections share it; an in-memory SQLite database exists once per connection).
   */
  private static Catalog backend(
      Path database, String warehouseLocation, Map<String, String> ioProperties) {
    Map<String, String> properties = new HashMap<>(ioProperties);
    properties.put(CatalogUtil.ICEBERG_CATALOG_TYPE, CatalogUtil.ICEBERG_CATALOG_TYPE_JDBC);
    properties.put(CatalogProperties.URI, "jdbc:sqlite:" + database);
    properties.put("jdbc.schema-version", "V1");
    properties.put(CatalogProperties.WAREHOUSE_LOCATION, warehouseLocation);
    return CatalogUtil.buildIcebergCatalog("rest_backend", properties, new Configuration());
  }

  /** The service's base URI, e.g. {@code http://127.0.0.1:41234}: a client's {@code uri}. */
  public String uri() {
    return uri;
  }

  /** Where the catalog's database and warehouse live. */
  public Path directory() {
    return directory;
  }

  /**
   * Arms the service: the next {@code commits} successful commits to {@code table} (its name
   * without namespace) are applied, and each one's response is replaced by an HTTP 500 carrying
   * {@code message}, so the committing client cannot know whether its commit landed.
   */
  public void loseCommitResponses(String table, int commits, String message) {
    Objects.requireNonNull(table, "table");
    Objects.requireNonNull(message, "message");
    if (commits < 1) {
      throw new IllegalArgumentException("commits must be at least 1, got " + commits);
    }
    servlet.arm(table, commits, message);
  }

  /** The commits applied whose responses were lost so far, oldest first. */
  public List<LostResponse> lostResponses() {
    return servlet.lost();
  }

  /** How many requests the service has answered (or lost the answer of) since it started. */
  public long requestsServed() {
    return servlet.served();
  }

  /**
   * Stops listening and closes every open connection: clients are refused, as when the service is
   * down, until {@link #startListening()}. The catalog's state is kept.
   */
  public synchronized void stopListening() throws Exception {
    ServerConnector connector = (ServerConnector) server.getConnectors()[0];
    connector.stop();
    connector.getConnectedEndPoints().forEach(endPoint -> endPoint.close());
    LOG.info("Embedded Iceberg REST catalog at {} stopped listening", uri);
  }

  /** Listens again on the same port. */
  public synchronized void startListening() throws Exception {
    ServerConnector connector = (ServerConnector) server.getConnectors()[0];
    connector.start();
    LOG.info("Embedded Iceberg REST catalog at {} listens again", uri);
  }

  /** Whether the service accepts connections now. */
  public boolean listening() {
    return ((ServerConnector) server.getConnectors()[0]).isRunning();
  }

  /**
   * A commit the service applied and whose response it lost.
   *
   * @param table the table's name without namespace
   * @param at when the response was replaced
   * @param metadataLocation the table's new metadata file, as the lost response named it
   */
  public record LostResponse(String table, Instant at, String metadataLocation) {}

  @Override
  public void close() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    try {
      server.stop();
    } catch (Exception e) {
      LOG.warn(
          "The embedded Iceberg REST catalog at {} did not stop cleanly: {}", uri, e.toString());
    }
    closeQuietly(backend);
  }

  private static void closeQuietly(Catalog catalog) {
    if (catalog instanceof AutoCloseable closeable) {
      try {
        closeable.close();
      } catch (Exception e) {
        LOG.debug("Closing the REST catalog's backend failed", e);
      }
    }
  }
}
