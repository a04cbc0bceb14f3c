package io.reliabilitylab.harness.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;

/** The JVM's heap as the bench reports it: the sum of the heap pools' peak usage. */
final class HeapUsage {

  private HeapUsage() {}

  /** Starts measuring peaks from now. */
  static void resetPeaks() {
    for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
      if (pool.getType() == MemoryType.HEAP && pool.isValid()) {
        pool.resetPeakUsage();
      }
    }
  }

  /**
   * The sum of each heap pool's peak since {@link #resetPeaks()}: an upper bound of the heap in use
   * at any one moment, as the pools may peak at different times.
   */
  static long peakBytes() {
    long sum = 0;
    for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
      if (pool.getType() == MemoryType.HEAP && pool.isValid() && pool.getPeakUsage() != null) {
        sum += pool.getPeakUsage().getUsed();
      }
    }
    return sum;
  }

  /** The most heap the JVM may use. */
  static long maxBytes() {
    return Runtime.getRuntime().maxMemory();
  }
}
