package io.reliabilitylab.pipeline.flink.faults;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apiguardian.api.API;

/**
 * A job's start gate: its {@link OperatorFaultPoint} holds the job's first element until the lab
 * has armed the faults placed at the job's start ({@code snapshot-phase:K}), which it can only do
 * once the job is submitted. Without the gate a job on a warm cluster read its whole snapshot
 * before the arming, and a snapshot-phase fault counted too few rows to fire.
 *
 * <p>Gates live in this JVM; a {@link FaultChannelWatcher} opens them in the JVMs of a cluster of
 * processes (the lab writes the gate into the channel after the arm files). A gate nobody opens
 * lets the job go after {@link #LONGEST_WAIT}: a cluster that cannot be reached this way gets no
 * fault points from the lab, and must not hang.
 */
@API(status = INTERNAL)
public final class StartGates {

  /** How long a job's first element waits for its gate at most. */
  public static final Duration LONGEST_WAIT = Duration.ofSeconds(10);

  private static final Map<String, CountDownLatch> GATES = new ConcurrentHashMap<>();

  private StartGates() {}

  /** A new gate's name, unique to one start of a pipeline. */
  public static String newGate() {
    return "start-" + UUID.randomUUID();
  }

  /** Opens {@code gate} in this JVM; opening it again does nothing. */
  public static void open(String gate) {
    latch(gate).countDown();
  }

  /** Whether {@code gate} is open in this JVM. */
  static boolean isOpen(String gate) {
    return latch(gate).getCount() == 0;
  }

  /** Waits for {@code gate} to open, at most {@code timeout}; whether it opened. */
  static boolean await(String gate, Duration timeout) throws InterruptedException {
    return latch(gate).await(timeout.toNanos(), TimeUnit.NANOSECONDS);
  }

  private static CountDownLatch latch(String gate) {
    return GATES.computeIfAbsent(gate, name -> new CountDownLatch(1));
  }
}
