package io.reliabilitylab.pipeline.flink.catalog;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.reliabilitylab.catalog.rest.EmbeddedRestCatalog;
import io.reliabilitylab.checks.iceberg.SinkCatalog;
import io.reliabilitylab.objectstore.EmbeddedObjectStore;
import io.reliabilitylab.spi.pipeline.SinkCatalogControl;
import java.net.URI;
import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The production-like sink topology the lab runs itself: an Iceberg REST catalog service (in the
 * lab's JVM, as Iceberg's reference server runs) in front of an S3-compatible object store (a
 * process of its own), which holds every data, delete, manifest and metadata file. One is shared by
 * the scenarios of a JVM, each in a namespace of its own, so that a suite starts it once; it stops
 * at JVM exit (the object store's process also with the lab's other processes, on Ctrl-C and
 * SIGTERM, and a later run kills what a SIGKILLed lab left).
 *
 * <pre>{@code
 * SinkCatalog catalog = EmbeddedSinkCatalog.acquire(suiteDirectory.resolve("sink-catalog")).sinkCatalog();
 * }</pre>
 */
@API(status = EXPERIMENTAL)
public final class EmbeddedSinkCatalog implements AutoCloseable {

  /**
   * The bucket the object store starts with; tables go under {@code s3://lab-warehouse/warehouse}.
   */
  public static final String BUCKET = "lab-warehouse";

  /** The prefix of the jobs' checkpoints in {@link #BUCKET}. */
  public static final String CHECKPOINTS = "checkpoints";

  private static final Logger LOG = LoggerFactory.getLogger(EmbeddedSinkCatalog.class);
  private static @Nullable EmbeddedSinkCatalog shared;

  static {
    Runtime.getRuntime()
        .addShutdownHook(new Thread(EmbeddedSinkCatalog::closeShared, "srl-sink-catalog-stop"));
  }

  private final EmbeddedObjectStore store;
  private final EmbeddedRestCatalog catalog;

  private EmbeddedSinkCatalog(EmbeddedObjectStore store, EmbeddedRestCatalog catalog) {
    this.store = store;
    this.catalog = catalog;
  }

  /**
   * The running topology of this JVM, or a new one started in {@code directory} (its object store's
   * files, the catalog's database and the logs); a reused one keeps the directory it started in.
   */
  public static synchronized EmbeddedSinkCatalog acquire(Path directory) {
    Objects.requireNonNull(directory, "directory");
    EmbeddedSinkCatalog existing = shared;
    if (existing != null && existing.store.alive()) {
      return existing;
    }
    if (existing != null) {
      LOG.warn("The embedded object store (pid {}) is gone; starting a new one", existing.pid());
      existing.close();
    }
    shared = start(directory.toAbsolutePath().normalize());
    return shared;
  }

  private static EmbeddedSinkCatalog start(Path directory) {
    long started = System.nanoTime();
    EmbeddedObjectStore store =
        EmbeddedObjectStore.start(directory.resolve("object-store"), BUCKET);
    try {
      EmbeddedRestCatalog catalog =
          EmbeddedRestCatalog.start(
              directory.resolve("rest-catalog"),
              store.warehouseLocation(),
              store.fileIoProperties());
      // the MiniCluster's checkpoints go to the store through Flink's S3 file system
      FlinkS3Plugin.install(store.fileIoProperties());
      LOG.info(
          "Embedded sink catalog: REST catalog {} over object store {} (pid {}), {} in {} ms",
          catalog.uri(),
          store.endpoint(),
          store.pid(),
          store.warehouseLocation(),
          (System.nanoTime() - started) / 1_000_000);
      return new EmbeddedSinkCatalog(store, catalog);
    } catch (RuntimeException e) {
      store.close();
      throw e;
    }
  }

  /**
   * The catalog as the job, the checks and the maintenance open it: the REST service's URI and the
   * object store's FileIO properties (clients are not handed the store's endpoint by the service).
   */
  public SinkCatalog sinkCatalog() {
    return SinkCatalog.rest(catalog.uri(), store.fileIoProperties());
  }

  /**
   * The running embedded topology that serves {@code catalog}, if any: the pipeline may then break
   * its service ({@link SinkCatalogControl}).
   */
  public static synchronized Optional<EmbeddedSinkCatalog> serving(SinkCatalog catalog) {
    EmbeddedSinkCatalog current = shared;
    return current != null
            && catalog instanceof SinkCatalog.Rest rest
            && rest.uri().equals(current.catalog.uri())
        ? Optional.of(current)
        : Optional.empty();
  }

  /**
   * Where a job whose tables are in {@code namespace} keeps its checkpoints on the object store:
   * {@code s3://lab-warehouse/checkpoints/<namespace>}. Flink reaches it through its S3 file system
   * plugin, which this JVM has loaded ({@link FlinkS3Plugin}) since the store started.
   */
  public URI checkpointLocation(String namespace) {
    Objects.requireNonNull(namespace, "namespace");
    return URI.create("s3://" + BUCKET + "/" + CHECKPOINTS + "/" + namespace);
  }

  /** Faults at the REST catalog service. */
  public SinkCatalogControl control() {
    return new EmbeddedCatalogControl(catalog);
  }

  /** The REST catalog service. */
  public EmbeddedRestCatalog restCatalog() {
    return catalog;
  }

  /** The object store. */
  public EmbeddedObjectStore objectStore() {
    return store;
  }

  /** The object store's process id. */
  public long pid() {
    return store.pid();
  }

  /** Stops the service, then the object store. */
  @Override
  public void close() {
    try {
      catalog.close();
    } finally {
      store.close();
    }
  }

  private static synchronized void closeShared() {
    if (shared != null) {
      shared.close();
      shared = null;
    }
  }
}
