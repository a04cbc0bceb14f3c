package io.reliabilitylab.faults;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import com.google.auto.service.AutoService;
import io.reliabilitylab.kit.Observation;
import io.reliabilitylab.kit.PipelineView;
import io.reliabilitylab.kit.ProofVerdict;
import io.reliabilitylab.kit.ProvenFault;
import io.reliabilitylab.spi.fault.FaultContext;
import io.reliabilitylab.spi.fault.FaultHandle;
import io.reliabilitylab.spi.fault.FaultInjector;
import io.reliabilitylab.spi.fault.FaultPosition;
import io.reliabilitylab.spi.fault.FaultSpec;
import io.reliabilitylab.spi.fault.FaultVariant;
import io.reliabilitylab.spi.pipeline.BrokerControl;
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
 * #DEFAULT_DOWN_MS}).
 *
 * <p>Proof: while the broker was down an observation of its offsets failed (clients really lost
 * it), and once started again an observation succeeded, with the offsets it still held.
 */
@API(status = EXPERIMENTAL)
@AutoService(FaultInjector.class)
public final class BrokerRestartInjector extends BuiltInFault {

  /** The parameter for how long the broker stays down, in milliseconds. */
  public static final String DOWN = "down";

  static final long DEFAULT_DOWN_MS = 2_000;

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
    return List.of(FaultVariant.standard(description()));
  }

  @Override
  Map<String, String> parameters() {
    return Map.of(DOWN, "how long the broker stays down, in ms (default " + DEFAULT_DOWN_MS + ")");
  }

  @Override
  FaultHandle start(FaultContext context, PipelineView view) throws Exception {
    FaultSpec spec = context.spec();
    long downMs = positiveLong(spec, DOWN, DEFAULT_DOWN_MS);
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
}
