package io.reliabilitylab.faults.network;

import io.reliabilitylab.spi.pipeline.NetworkLink.Direction;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One direction of a proxied connection: a reader that takes bytes off the socket as they come, and
 * a writer that delivers them as the direction's impairment allows, in order.
 */
final class ProxiedFlow {

  /** What a frozen flow holds before the reader stops reading and TCP pushes back. */
  private static final int MAX_QUEUED_BYTES = 32 * 1024 * 1024;

  private static final int CHUNK_BYTES = 64 * 1024;

  /** How often a waiting writer looks whether the impairment was lifted. */
  private static final long WAIT_STEP_NANOS = TimeUnit.MILLISECONDS.toNanos(5);

  /** A read's bytes, when they may go, and whether a freeze held them (counted once). */
  private static final class Chunk {
    final ByteBuffer bytes;
    final long readAt;
    final long releaseAt;
    boolean held;

    Chunk(ByteBuffer bytes, long readAt, long releaseAt) {
      this.bytes = bytes;
      this.readAt = readAt;
      this.releaseAt = releaseAt;
    }
  }

  private static final Chunk END = new Chunk(ByteBuffer.allocate(0), 0, 0);

  private final Direction flow;
  private final SocketChannel from;
  private final SocketChannel to;
  private final Impairments impairments;
  private final TcpProxy.LinkCounters counters;
  private final java.util.function.Consumer<Boolean> onEnd;
  private final BlockingQueue<Chunk> queue = new LinkedBlockingQueue<>();
  private final Semaphore budget = new Semaphore(MAX_QUEUED_BYTES);
  private final AtomicLong queuedBytes = new AtomicLong();
  private final Thread reader;
  private final Thread writer;
  private long lastReleaseAt;

  ProxiedFlow(
      String linkName,
      Direction flow,
      SocketChannel from,
      SocketChannel to,
      Impairments impairments,
      TcpProxy.LinkCounters counters,
      java.util.function.Consumer<Boolean> onEnd) {
    this.flow = flow;
    this.from = from;
    this.to = to;
    this.impairments = impairments;
    this.counters = counters;
    this.onEnd = onEnd;
    String thread = "srl-proxy-" + linkName + "-" + flow.name().toLowerCase(java.util.Locale.ROOT);
    this.reader = new Thread(this::readLoop, thread + "-read");
    this.writer = new Thread(this::writeLoop, thread + "-write");
    reader.setDaemon(true);
    writer.setDaemon(true);
  }

  void start() {
    reader.start();
    writer.start();
  }

  /** Bytes read and not yet delivered: held by a freeze, a latency or a throttle. */
  long heldNow() {
    return queuedBytes.get();
  }

  /** Counts what was read and will never be delivered: the connection ends. */
  void dropQueued() {
    counters.bytesDropped.addAndGet(queuedBytes.getAndSet(0));
    queue.clear();
    queue.offer(END);
    writer.interrupt();
    reader.interrupt();
  }

  private void readLoop() {
    try {
      while (true) {
        ByteBuffer buffer = ByteBuffer.allocate(CHUNK_BYTES);
        int read = from.read(buffer);
        if (read < 0) {
          break;
        }
        if (read == 0) {
          continue;
        }
        buffer.flip();
        budget.acquire(read);
        queuedBytes.addAndGet(read);
        queue.put(stamp(buffer));
      }
    } catch (IOException | InterruptedException ended) {
      // reset, closed, or the proxy stops: the writer ends after what was read
    }
    queue.offer(END);
  }

  /** When the chunk may go: after the added latency, and never before the chunk read before it. */
  private Chunk stamp(ByteBuffer buffer) {
    long now = System.nanoTime();
    Impairments.Impairment impairment = impairments.of(flow);
    long releaseAt = now;
    if (impairment.delays()) {
      long jitter =
          impairment.jitterNanos() > 0
              ? ThreadLocalRandom.current().nextLong(impairment.jitterNanos() + 1)
              : 0;
      releaseAt = now + impairment.latencyNanos() + jitter;
    }
    releaseAt = Math.max(releaseAt, lastReleaseAt);
    lastReleaseAt = releaseAt;
    Chunk chunk = new Chunk(buffer, now, releaseAt);
    if (impairment.frozen()) {
      chunk.held = true;
      counters.bytesHeld.addAndGet(buffer.remaining());
    }
    return chunk;
  }

  /** Delivers the chunks; tells {@code onEnd} whether the flow ended cleanly (its peer closed). */
  private void writeLoop() {
    boolean clean = false;
    try {
      while (true) {
        Chunk chunk = queue.take();
        if (chunk == END) {
          break;
        }
        int size = chunk.bytes.remaining();
        awaitThaw(chunk);
        awaitRelease(chunk);
        deliver(chunk.bytes);
        (flow == Direction.TO_SERVER ? counters.bytesToServer : counters.bytesToClient)
            .addAndGet(size);
        queuedBytes.addAndGet(-size);
        budget.release(size);
      }
      to.shutdownOutput();
      clean = true;
    } catch (IOException | InterruptedException ended) {
      // the peer reset or the connection was closed under us
    }
    onEnd.accept(clean);
  }

  private void awaitThaw(Chunk chunk) throws InterruptedException {
    while (impairments.of(flow).frozen()) {
      if (!chunk.held) {
        chunk.held = true;
        counters.bytesHeld.addAndGet(chunk.bytes.remaining());
      }
      TimeUnit.NANOSECONDS.sleep(WAIT_STEP_NANOS);
    }
  }

  /** Waits out the chunk's latency; a heal lets it go at once. */
  private void awaitRelease(Chunk chunk) throws InterruptedException {
    boolean waited = false;
    long remaining;
    while ((remaining = chunk.releaseAt - System.nanoTime()) > 0 && impairments.of(flow).delays()) {
      waited = true;
      TimeUnit.NANOSECONDS.sleep(Math.min(remaining, WAIT_STEP_NANOS));
    }
    if (waited) {
      counters.chunksDelayed.incrementAndGet();
      long added = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - chunk.readAt);
      counters.maxAddedDelayMillis.accumulateAndGet(added, Math::max);
    }
  }

  /** Writes the chunk, in slices paced to the throttle while one is set. */
  private void deliver(ByteBuffer bytes) throws IOException, InterruptedException {
    while (bytes.hasRemaining()) {
      long bytesPerSecond = impairments.of(flow).bytesPerSecond();
      if (bytesPerSecond <= 0) {
        while (bytes.hasRemaining()) {
          to.write(bytes);
        }
        return;
      }
      // slices of a twentieth of a second's budget: smooth enough, few wake-ups
      int slice = (int) Math.max(1, Math.min(bytes.remaining(), bytesPerSecond / 20));
      ByteBuffer part = bytes.slice();
      part.limit(slice);
      while (part.hasRemaining()) {
        to.write(part);
      }
      bytes.position(bytes.position() + slice);
      counters.bytesThrottled.addAndGet(slice);
      long pauseNanos = TimeUnit.SECONDS.toNanos(slice) / bytesPerSecond;
      TimeUnit.NANOSECONDS.sleep(pauseNanos);
      counters.throttledMillis.addAndGet(TimeUnit.NANOSECONDS.toMillis(pauseNanos));
    }
  }
}
