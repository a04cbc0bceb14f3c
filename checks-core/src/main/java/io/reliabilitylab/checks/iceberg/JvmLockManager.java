package io.reliabilitylab.checks.iceberg;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.TimeUnit;
import org.apache.iceberg.CatalogProperties;
import org.apache.iceberg.LockManager;
import org.apache.iceberg.util.PropertyUtil;

/**
 * The lock manager of the lab's Hadoop catalogs: one lock per entity within the JVM, as Iceberg's
 * default in-memory manager, but with nothing shared to close.
 *
 * <p>Why not Iceberg's default: in iceberg-core 1.10 its heartbeat scheduler is a static field that
 * {@code close()} shuts down, and a Hadoop catalog closes its lock manager when it is closed. So
 * closing any catalog of the JVM (a checker's reader, the compaction's, a sink's table loader on a
 * task's restart) could reject the lock of a commit running at that moment in another catalog, and
 * the job failed its commit with {@code RejectedExecutionException}. A lock here is held until the
 * committer releases it (Hadoop's commit releases in a {@code finally}), so no heartbeat is needed.
 */
public final class JvmLockManager implements LockManager {

  /** Entity → owner, for every catalog of the JVM: two catalogs on one table exclude each other. */
  private static final ConcurrentMap<String, String> HELD = new ConcurrentHashMap<>();

  private long acquireTimeoutMs = CatalogProperties.LOCK_ACQUIRE_TIMEOUT_MS_DEFAULT;
  private long acquireIntervalMs = CatalogProperties.LOCK_ACQUIRE_INTERVAL_MS_DEFAULT;

  @Override
  public void initialize(Map<String, String> properties) {
    acquireTimeoutMs =
        PropertyUtil.propertyAsLong(
            properties,
            CatalogProperties.LOCK_ACQUIRE_TIMEOUT_MS,
            CatalogProperties.LOCK_ACQUIRE_TIMEOUT_MS_DEFAULT);
    acquireIntervalMs =
        PropertyUtil.propertyAsLong(
            properties,
            CatalogProperties.LOCK_ACQUIRE_INTERVAL_MS,
            CatalogProperties.LOCK_ACQUIRE_INTERVAL_MS_DEFAULT);
  }

  /** Waits up to the acquire timeout for the entity's lock; re-entrant for the same owner. */
  @Override
  public boolean acquire(String entityId, String ownerId) {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(acquireTimeoutMs);
    while (true) {
      String holder = HELD.putIfAbsent(entityId, ownerId);
      if (holder == null || holder.equals(ownerId)) {
        return true;
      }
      if (System.nanoTime() - deadline >= 0) {
        return false;
      }
      try {
        Thread.sleep(Math.max(1, Math.min(acquireIntervalMs, 50)));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return false;
      }
    }
  }

  /** Releases the entity's lock if {@code ownerId} holds it. */
  @Override
  public boolean release(String entityId, String ownerId) {
    return HELD.remove(entityId, ownerId);
  }

  /** Nothing to close: the locks outlive any one catalog, as the JVM's commits do. */
  @Override
  public void close() {}
}
