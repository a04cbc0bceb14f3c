package io.reliabilitylab.harness.bench;

import com.sun.management.GarbageCollectionNotificationInfo;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import javax.management.ListenerNotFoundException;
import javax.management.Notification;
import javax.management.NotificationEmitter;
import javax.management.NotificationListener;
import javax.management.openmbean.CompositeData;

/**
 * The JVM's heap while the bench runs, from the collector's own notifications: the most heap in use
 * right after any collection (what the bench and its pipeline hold, plus garbage a young collection
 * leaves in the old generation) is what must fit the heap; the sum of the pools' peaks only bounds
 * it from above, as the pools peak at different times and count garbage.
 */
final class HeapUsage implements AutoCloseable {

  private final Set<String> heapPools = new HashSet<>();
  private final AtomicLong peakAfterCollection = new AtomicLong();
  private final AtomicLong collections = new AtomicLong();
  private final AtomicLong fullCollections = new AtomicLong();
  private final AtomicLong pauseMs = new AtomicLong();
  private final List<NotificationEmitter> emitters = new ArrayList<>();
  private final NotificationListener listener = this::collected;
  private final long startedNanos = System.nanoTime();

  private HeapUsage() {
    for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
      if (pool.getType() == MemoryType.HEAP && pool.isValid()) {
        heapPools.add(pool.getName());
        pool.resetPeakUsage();
      }
    }
    for (GarbageCollectorMXBean collector : ManagementFactory.getGarbageCollectorMXBeans()) {
      if (collector instanceof NotificationEmitter emitter) {
        emitter.addNotificationListener(listener, null, null);
        emitters.add(emitter);
      }
    }
  }

  /** Measures from now until {@link #close()}. */
  static HeapUsage watch() {
    return new HeapUsage();
  }

  /** What was measured so far. */
  BenchReport.Heap report() {
    long poolPeaks = 0;
    for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
      if (heapPools.contains(pool.getName()) && pool.getPeakUsage() != null) {
        poolPeaks += pool.getPeakUsage().getUsed();
      }
    }
    return new BenchReport.Heap(
        peakAfterCollection.get(),
        poolPeaks,
        Runtime.getRuntime().maxMemory(),
        collections.get(),
        fullCollections.get(),
        pauseMs.get(),
        (System.nanoTime() - startedNanos) / 1_000_000);
  }

  @Override
  public void close() {
    for (NotificationEmitter emitter : emitters) {
      try {
        emitter.removeNotificationListener(listener);
      } catch (ListenerNotFoundException e) {
        // already gone: nothing to remove
      }
    }
    emitters.clear();
  }

  private void collected(Notification notification, Object handback) {
    if (!GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION.equals(
        notification.getType())) {
      return;
    }
    GarbageCollectionNotificationInfo info =
        GarbageCollectionNotificationInfo.from((CompositeData) notification.getUserData());
    long used = 0;
    for (Map.Entry<String, MemoryUsage> pool :
        info.getGcInfo().getMemoryUsageAfterGc().entrySet()) {
      if (heapPools.contains(pool.getKey())) {
        used += pool.getValue().getUsed();
      }
    }
    peakAfterCollection.accumulateAndGet(used, Math::max);
    collections.incrementAndGet();
    if (info.getGcAction().contains("major")) {
      fullCollections.incrementAndGet();
    }
    pauseMs.addAndGet(info.getGcInfo().getDuration());
  }
}
