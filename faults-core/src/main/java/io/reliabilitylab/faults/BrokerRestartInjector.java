package io.reliabilitylab.faults;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import com.google.auto.service.AutoService;
import io.reliabilitylab.kit.Observation;
import io.reliabilitylab.kit.PipelineView;
import io.reliabilitylab.kit.ProofVerdict;
import io.reliabilitylab.kit.ProvenFault;
import io.reliabilitylab.spi.check.LinkageRecord;
import io.reliabilitylab.spi.fault.FaultContext;
import io.reliabilitylab.spi.fault.FaultHandle;
import io.reliabilitylab.spi.fault.FaultInjector;
import io.reliabilitylab.spi.fault.FaultPosition;
import io.reliabilitylab.spi.fault.FaultSpec;
import io.reliabilitylab.spi.fault.FaultVariant;
import io.reliabilitylab.spi.pipeline.BrokerControl;
import io.reliabilitylab.spi.pipeline.BrokerProcessControl;
import io.reliabilitylab.spi.pipeline.JobControl;
import io.reliabilitylab.spi.pipeline.PipelineCapability;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apiguardian.api.API;

/**
 * {@code broker-restart}: the message broker between the source connector and the job stops while
 * the job runs, stays down for a while, and starts again on the same address and data. The
 * connector's producer and the job's Kafka source must reconnect on their own.
 *
 * <p>Parameters: {@code down} = how long the broker stays down, in milliseconds (default {@value
 * #DEFAULT_DOWN_MS}); {@code stop} = {@code clean} (the default: a clean shutdown) or {@code
 * sigkill} (variant {@code crash}: the broker process is killed with SIGKILL, which needs {@link
 * BrokerProcessControl}).
 *
 * <p>Proof: while the broker was down an observation of its offsets failed (clients really lost
 * it), and once started again an observation succeeded, with the offsets it still held. For a crash
 * also: the killed process exited with status 137 and is gone, another process serves now, and the
 * restarted broker did not find a clean-shutdown marker (where its log tells).
 */
@API(status = EXPERIMENTAL)
@AutoService(FaultInjector.class)
public final class BrokerRestartInjector extends BuiltInFault {

  /** The parameter for how long the broker stays down, in milliseconds. */
  public static final String DOWN = "down";

  /** The parameter for how the broker goes down: {@value #CLEAN} or {@value #SIGKILL}. */
  public static final String STOP = "stop";

  static final String CLEAN = "clean";
  static final String SIGKILL = "sigkill";
  static final String CRASH = "crash";
  static final long DEFAULT_DOWN_MS = 2_000;
  static final int SIGKILL_EXIT_STATUS = 128 + 9;

  /** What a crash of the broker process shows, and what it does not. */
  static final String CRASH_CLAIM_BOUNDARY =
      "SIGKILL of the broker process on this machine: it loses the process, not the operating"
          + " system's page cache, so records the broker wrote to the page cache without an fsync"
          + " survive (a power loss or kernel crash is not shown, nor a multi-broker cluster's"
          + " replication or leader election: one node, replication 1). It does show in-flight"
          + " produce and fetch requests cut off, the broker's unclean log recovery and index"
          + " rebuild at restart, the source producer's retries and idempotence (acks=all) across"
          + " the crash and the Flink Kafka source reconnecting, with the checks judging that"
          + " nothing was lost or duplicated past the dedup";

  @Override
  public String name() {
    return "broker-restart";
  }

  @Override
  public String description() {
    return "Stops the message broker while the job runs and starts it again on the same address"
        + " and data";
  }

  @Override
  public Set<Class<? extends PipelineCapability>> requiredCapabilities() {
    return Set.of(JobControl.class, BrokerControl.class);
  }

  @Override
  public Set<FaultPosition.Kind> supportedPositions() {
    return EnumSet.of(FaultPosition.Kind.NOW);
  }

  @Override
  public List<FaultVariant> variants() {
    return List.of(
        FaultVariant.standard(description()),
        FaultVariant.of(
                CRASH,
                "Kills the broker process with SIGKILL while the job runs and starts it again on"
                    + " the same address and data (unclean log recovery)")
            .with(STOP, SIGKILL)
            .requires(BrokerProcessControl.class));
  }

  @Override
  Set<Class<? extends PipelineCapability>> extraCapabilities(FaultSpec spec) {
    return crash(spec) ? Set.of(BrokerProcessControl.class) : Set.of();
  }

  @Override
  Map<String, String> parameters() {
    return Map.of(
        DOWN,
        "how long the broker stays down, in ms (default " + DEFAULT_DOWN_MS + ")",
        STOP,
        "clean (default): a clean shutdown; sigkill: SIGKILL the broker process");
  }

  private static boolean crash(FaultSpec spec) {
    return choice(spec, STOP, CLEAN, Set.of(CLEAN, SIGKILL)).equals(SIGKILL);
  }

  @Override
  FaultHandle start(FaultContext context, PipelineView view) throws Exception {
    FaultSpec spec = context.spec();
    long downMs = positiveLong(spec, DOWN, DEFAULT_DOWN_MS);
    if (crash(spec)) {
      return crash(context, view, downMs);
    }
    BrokerControl broker = context.pipeline().capability(BrokerControl.class).orElseThrow();
    Observation baseline = view.observe();
    Map<String, String> details = new LinkedHashMap<>();
    details.put("broker", broker.address());
    details.put(DOWN, downMs + " ms");

    broker.stop();
    Instant stoppedAt = context.clock().instant();
    // the changes written from now on arrive while the broker is down
    context.signalArmed();
    details.put("stopped_at", stoppedAt.toString());
    String whileDown;
    try {
      try {
        broker.observeLinkage("broker-down");
        whileDown = null;
      } catch (Exception e) {
        whileDown = e.getClass().getSimpleName() + ": " + e.getMessage();
      }
      Thread.sleep(downMs);
    } finally {
      // also when interrupted while down: inject must not throw with the broker left stopped
      broker.start();
    }
    Instant startedAt = context.clock().instant();
    details.put("started_at", startedAt.toString());
    details.put("down_for", Duration.between(stoppedAt, startedAt).toString());
    String observedWhileDown = whileDown;
    return ProvenFault.builder(context, view, baseline)
        .what("stopped the broker for " + downMs + " ms and started it again")
        .details(details)
        .proof(
            (before, now) -> {
              if (observedWhileDown == null) {
                return ProofVerdict.refuted(
                    "the broker answered an offsets request while it was supposed to be down");
              }
              try {
                var linkage = broker.observeLinkage("broker-restarted");
                List<String> proofs = new ArrayList<>();
                proofs.add(
                    "while the broker was down an offsets request failed: " + observedWhileDown);
                proofs.add(
                    "after the restart it answered again: topic "
                        + linkage.topic()
                        + ", "
                        + linkage.offsets().size()
                        + " partition(s), log-end offsets "
                        + linkage.offsets().stream()
                            .map(offset -> offset.partition() + ":" + offset.logEndOffset())
                            .toList());
                return ProofVerdict.proven(
                    stoppedAt, proofs, Map.of("request_failed_while_down", observedWhileDown));
              } catch (Exception e) {
                return ProofVerdict.pending("the broker does not answer yet: " + e.getMessage());
              }
            })
        // nothing to heal: inject() started the broker again before it returned
        .build();
  }

  /**
   * SIGKILL, the down window, a start on the same data; proven by the operating system's exit
   * status, the old process gone and a new one serving, and the linkage observed after the start.
   */
  private FaultHandle crash(FaultContext context, PipelineView view, long downMs) throws Exception {
    BrokerControl broker = context.pipeline().capability(BrokerControl.class).orElseThrow();
    BrokerProcessControl process =
        context.pipeline().capability(BrokerProcessControl.class).orElseThrow();
    Observation baseline = view.observe();
    Map<String, String> details = new LinkedHashMap<>();
    details.put("broker", broker.address());
    details.put(DOWN, downMs + " ms");
    details.put("claim_boundary", CRASH_CLAIM_BOUNDARY);

    long killedPid = process.pid();
    Instant killedAt = context.clock().instant();
    int exitStatus = process.kill();
    // the changes written from now on meet a broker that is gone
    context.signalArmed();
    boolean aliveAfterKill = process.isAlive(killedPid);
    details.put("killed_pid", Long.toString(killedPid));
    details.put("killed_at", killedAt.toString());
    details.put("exit_status", Integer.toString(exitStatus));
    String whileDown;
    long restartedPid;
    try {
      try {
        broker.observeLinkage("broker-down");
        whileDown = null;
      } catch (Exception e) {
        whileDown = e.getClass().getSimpleName() + ": " + e.getMessage();
      }
      Thread.sleep(downMs);
    } finally {
      // also when interrupted while down: inject must not throw with the broker left dead
      broker.start();
    }
    restartedPid = process.pid();
    Instant startedAt = context.clock().instant();
    List<String> recovery = process.recoveryLog();
    details.put("restarted_pid", Long.toString(restartedPid));
    details.put("started_at", startedAt.toString());
    details.put("down_for", Duration.between(killedAt, startedAt).toString());
    if (!recovery.isEmpty()) {
      details.put("recovery_log", String.join("\n", recovery));
    }
    String observedWhileDown = whileDown;
    return ProvenFault.builder(context, view, baseline)
        .what(
            "killed the broker process "
                + killedPid
                + " with SIGKILL, kept it down for "
                + downMs
                + " ms and started it again on the same data")
        .details(details)
        .proof(
            (before, now) -> {
              if (exitStatus != SIGKILL_EXIT_STATUS) {
                return ProofVerdict.refuted(
                    "the broker process "
                        + killedPid
                        + " exited with status "
                        + exitStatus
                        + ", not "
                        + SIGKILL_EXIT_STATUS
                        + " (SIGKILL)");
              }
              if (aliveAfterKill) {
                return ProofVerdict.refuted(
                    "the broker process " + killedPid + " was still alive after the SIGKILL");
              }
              if (observedWhileDown == null) {
                return ProofVerdict.refuted(
                    "the broker answered an offsets request while it was supposed to be dead");
              }
              if (restartedPid == killedPid || !process.isAlive(restartedPid)) {
                return ProofVerdict.refuted(
                    "no new broker process serves: pid "
                        + restartedPid
                        + (restartedPid == killedPid ? " is the killed one" : " is not alive"));
              }
              List<String> cleanStart =
                  recovery.stream().filter(BrokerRestartInjector::foundCleanShutdown).toList();
              if (!cleanStart.isEmpty()) {
                return ProofVerdict.refuted(
                    "the restarted broker found a clean-shutdown marker, so the kill was not a"
                        + " crash to it: "
                        + cleanStart.get(0));
              }
              LinkageRecord linkage;
              try {
                linkage = broker.observeLinkage("broker-restarted");
              } catch (Exception e) {
                return ProofVerdict.pending("the broker does not answer yet: " + e.getMessage());
              }
              List<String> proofs = new ArrayList<>();
              proofs.add(
                  "the broker process "
                      + killedPid
                      + " was killed with SIGKILL: exit status "
                      + exitStatus
                      + ", no longer alive");
              proofs.add(
                  "while the broker was dead an offsets request failed: " + observedWhileDown);
              proofs.add(
                  recovery.stream()
                      .filter(line -> line.contains("no clean shutdown file"))
                      .findFirst()
                      .map(line -> "the restarted broker recovered its log uncleanly: " + line)
                      .orElse(
                          "the restarted broker's log shows no recovery lines to confirm an"
                              + " unclean recovery"));
              proofs.add(
                  "a new broker process "
                      + restartedPid
                      + " answers: topic "
                      + linkage.topic()
                      + ", "
                      + linkage.offsets().size()
                      + " partition(s), log-end offsets "
                      + linkage.offsets().stream()
                          .map(offset -> offset.partition() + ":" + offset.logEndOffset())
                          .toList());
              return ProofVerdict.proven(
                  killedAt,
                  proofs,
                  Map.of(
                      "killed_pid", Long.toString(killedPid),
                      "exit_status", Integer.toString(exitStatus),
                      "restarted_pid", Long.toString(restartedPid),
                      "request_failed_while_down", observedWhileDown));
            })
        // nothing to heal: inject() started the broker again before it returned
        .build();
  }

  /** Kafka's line for a log directory it found cleanly shut down ("Skipping recovery of ..."). */
  static boolean foundCleanShutdown(String line) {
    return line.contains("since clean shutdown file was found");
  }
}
