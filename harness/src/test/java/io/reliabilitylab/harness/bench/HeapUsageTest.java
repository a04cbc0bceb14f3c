package io.reliabilitylab.harness.bench;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class HeapUsageTest {

  private static final int MIB = 1 << 20;

  @Test
  void whatIsHeldThroughACollectionCounts() throws Exception {
    BenchReport.Heap held;
    try (HeapUsage heap = HeapUsage.watch()) {
      byte[][] live = new byte[96][];
      for (int i = 0; i < live.length; i++) {
        live[i] = new byte[MIB];
      }
      // a collection while the arrays were allocated saw only part of them: wait for the next
      long before = heap.report().collections();
      System.gc();
      held = awaitCollection(heap, before);
      assertThat(live[live.length - 1]).hasSize(MIB);
    }

    // G1 allocates each 1 MiB array as a humongous object of its own regions, and a collection's
    // after-figures have trailed by a region or so under load (95 of 96 MiB in one CI run): what
    // matters is that held memory counts, and garbage (the next test) does not
    assertThat(held.peakAfterCollectionBytes())
        .isGreaterThanOrEqualTo(90L * MIB)
        .isLessThanOrEqualTo(held.poolPeaksBytes())
        .isLessThanOrEqualTo(held.maxBytes());
    assertThat(held.collections()).isPositive();
    assertThat(held.pauseShare()).isBetween(0.0, 1.0);
  }

  @Test
  void garbageCollectedByACollectionDoesNotCountThoughThePoolPeaksDo() throws Exception {
    System.gc();
    try (HeapUsage heap = HeapUsage.watch()) {
      long sum = 0;
      for (int i = 0; i < 256 * 1024; i++) {
        // 256 MiB of short-lived small arrays: young-generation garbage, never promoted
        byte[] garbage = new byte[1024];
        garbage[i % 1024] = 1;
        sum += garbage.length;
      }
      long before = heap.report().collections();
      System.gc();
      BenchReport.Heap collected = awaitCollection(heap, before);

      assertThat(sum).isEqualTo(256L * MIB);
      assertThat(collected.peakAfterCollectionBytes() + 16L * MIB)
          .isLessThan(collected.poolPeaksBytes());
    }
  }

  /**
   * The report once more than {@code before} collections were seen: notifications arrive on a JMX
   * thread, shortly after the collection.
   */
  private static BenchReport.Heap awaitCollection(HeapUsage heap, long before)
      throws InterruptedException {
    for (int i = 0; i < 100; i++) {
      BenchReport.Heap report = heap.report();
      if (report.collections() > before) {
        return report;
      }
      Thread.sleep(20);
    }
    return heap.report();
  }
}
