package io.reliabilitylab.catalog.rest;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
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
 * team's own catalog. Table files go under {@code directory/warehouse}.
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
  private final Catalog backend;
  private final Path directory;
  private final String uri;
  private final AtomicBoolean closed = new AtomicBoolean();

  private EmbeddedRestCatalog(Server server, Catalog backend, Path directory, String uri) {
    this.server = server;
    this.backend = backend;
    this.directory = directory;
    this.uri = uri;
  }

  /**
   * Starts a catalog whose database and warehouse live in {@code directory} (created if absent).
   */
  public static EmbeddedRestCatalog start(Path directory) {
    Objects.requireNonNull(directory, "directory");
    Path absolute = directory.toAbsolutePath().normalize();
    Path warehouse = absolute.resolve("warehouse");
    try {
      Files.createDirectories(warehouse);
    } catch (IOException e) {
      throw new UncheckedIOException(
          "Cannot create the REST catalog's directory " + absolute + ": check its permissions", e);
    }
    Catalog backend = backend(absolute.resolve("catalog.db"), warehouse);
    Server server = new Server(new InetSocketAddress(LOOPBACK, 0));
    ServletContextHandler context = new ServletContextHandler(ServletContextHandler.NO_SESSIONS);
    context.addServlet(
        new ServletHolder(new RESTCatalogServlet(new RESTCatalogAdapter(backend))), "/*");
    server.setHandler(context);
    try {
      server.start();
    } catch (Exception e) {
      closeQuietly(backend);
      throw new IllegalStateException(
          "The embedded Iceberg REST catalog did not start: " + e.getMessage(), e);
    }
    int port = ((ServerConnector) server.getConnectors()[0]).getLocalPort();
    String uri = "http://" + LOOPBACK + ":" + port;
    LOG.info(
        "Embedded Iceberg REST catalog at {} (JDBC catalog on SQLite, warehouse {})",
        uri,
        warehouse);
    return new EmbeddedRestCatalog(server, backend, absolute, uri);
  }

  /**
   * The catalog behind the service: Iceberg's JDBC catalog on an SQLite file (one file, so that the
   * pool's connections share it; an in-memory SQLite database exists once per connection).
   */
  private static Catalog backend(Path database, Path warehouse) {
    return CatalogUtil.buildIcebergCatalog(
        "rest_backend",
        Map.of(
            CatalogUtil.ICEBERG_CATALOG_TYPE,
            CatalogUtil.ICEBERG_CATALOG_TYPE_JDBC,
            CatalogProperties.URI,
            "jdbc:sqlite:" + database,
            "jdbc.schema-version",
            "V1",
            CatalogProperties.WAREHOUSE_LOCATION,
            warehouse.toUri().toString()),
        new Configuration());
  }

  /** The service's base URI, e.g. {@code http://127.0.0.1:41234}: a client's {@code uri}. */
  public String uri() {
    return uri;
  }

  /** Where the catalog's database and warehouse live. */
  public Path directory() {
    return directory;
  }

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
