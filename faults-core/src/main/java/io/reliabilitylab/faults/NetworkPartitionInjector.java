package io.reliabilitylab.faults;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import com.google.auto.service.AutoService;
import io.reliabilitylab.spi.fault.FaultInjector;
import io.reliabilitylab.spi.fault.FaultSpec;
import io.reliabilitylab.spi.fault.FaultVariant;
import io.reliabilitylab.spi.pipeline.NetworkLink;
import io.reliabilitylab.spi.pipeline.NetworkLinkCounters;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apiguardian.api.API;

/**
 * {@code network-partition}: the network between the pipeline and its source database (or its Kafka
 * broker) partitions while the workload writes, then heals.
 *
 * <p>Parameters: {@code mode} = {@code freeze} (the default: every byte is held, nothing is reset,
 * as when packets are dropped and TCP retransmits in vain) or {@code reset} (every connection is
 * reset and new ones are refused, as a firewall that rejects); {@code direction} = {@code both}
 * (the default), {@code to-client} or {@code to-server}, for a freeze; plus {@code link} and {@code
 * duration-ms}. Variants: {@code reset}, {@code one-way} (the server's replies and the change
 * stream frozen, the pipeline's requests through), {@code broker} and {@code zookeeper} (on a
 * cluster of processes with a standby JobManager: the processes cut off their ZooKeeper for longer
 * than its session timeout).
 *
 * <p>Proof, from the lab's proxy: the bytes it held (a freeze) or the connections it reset and
 * refused (a reset) while partitioned. Recovery counts from the held bytes delivered, or from the
 * first connection opened through the link after the heal.
 */
@API(status = EXPERIMENTAL)
@AutoService(FaultInjector.class)
public final class NetworkPartitionInjector extends NetworkFault {

  public static final String NAME = "network-partition";

  static final String MODE = "mode";
  static final String FREEZE = "freeze";
  static final String RESET = "reset";

  /** Longer than a cluster of processes' ZooKeeper session timeout (6 s): the sessions expire. */
  static final long ZOOKEEPER_DURATION_MS = 8_000;

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public String description() {
    return "the network between the pipeline and its source (or broker) partitions for a few"
        + " seconds while the workload writes: bytes held (or connections reset), then healed";
  }

  @Override
  public List<FaultVariant> variants() {
    return List.of(
        variant(FaultVariant.standard(description())),
        variant(
            FaultVariant.of(
                    RESET,
                    "every connection to the source is reset and new ones refused for a few"
                        + " seconds: the connector must reconnect (or the job restart)")
                .with(MODE, RESET)),
        variant(
            FaultVariant.of(
                    "one-way",
                    "only the source's side is frozen: the pipeline's requests go through, the"
                        + " change stream and the replies are held")
                .with(DIRECTION, "to-client")),
        variant(
            FaultVariant.of(
                    BROKER,
                    "the network between the pipeline and its Kafka broker is frozen: the"
                        + " publisher's sends and the job's fetches are held")
                .with(LINK, BROKER)),
        variant(
            FaultVariant.of(
                    ZOOKEEPER,
                    "the network between the Flink cluster's processes and their ZooKeeper is"
                        + " frozen for 8 s, longer than their 6 s session timeout: the JobManagers"
                        + " lose leadership and the TaskManagers their leader, the sessions expire;"
                        + " after the heal a leader is elected again and the job recovered from"
                        + " the HA stores")
                .with(LINK, ZOOKEEPER)
                .with(DURATION_MS, Long.toString(ZOOKEEPER_DURATION_MS))));
  }

  @Override
  Map<String, String> ownParameters() {
    Map<String, String> parameters = new LinkedHashMap<>();
    parameters.put(
        MODE, "freeze (the default: bytes held, nothing reset) or reset (connections reset)");
    parameters.put(DIRECTION, "both (the default), to-client or to-server; a freeze only");
    return parameters;
  }

  @Override
  Impairment impairment(FaultSpec spec) {
    String mode = choice(spec, MODE, FREEZE, Set.of(FREEZE, RESET));
    NetworkLink.Direction direction = direction(spec, "both");
    if (RESET.equals(mode)) {
      if (direction != NetworkLink.Direction.BOTH) {
        throw new IllegalArgumentException(
            "Fault "
                + spec.id()
                + ": a reset cuts both ways; leave out direction or use mode=freeze for one way");
      }
      return new Cut();
    }
    return new Freeze(direction);
  }

  private record Freeze(NetworkLink.Direction direction) implements Impairment {

    @Override
    public void apply(NetworkLink link) {
      link.freeze(direction);
    }

    @Override
    public String effect(NetworkLinkCounters before, NetworkLinkCounters atHeal) {
      long held = atHeal.bytesHeld() - before.bytesHeld();
      if (held <= 0) {
        return null;
      }
      return "held "
          + held
          + " bytes "
          + directionText(direction)
          + " on "
          + atHeal.connectionsOpen()
          + " open connection(s), resetting none ("
          + (atHeal.connectionsReset() - before.connectionsReset())
          + " reset)";
    }

    @Override
    public String describe(NetworkLink link) {
      return "froze the " + link.name() + " link " + directionText(direction);
    }
  }

  private record Cut() implements Impairment {

    @Override
    public void apply(NetworkLink link) {
      link.cut();
    }

    @Override
    public String effect(NetworkLinkCounters before, NetworkLinkCounters atHeal) {
      long reset = atHeal.connectionsReset() - before.connectionsReset();
      long refused = atHeal.connectionsRefused() - before.connectionsRefused();
      if (reset + refused <= 0) {
        return null;
      }
      return "reset "
          + reset
          + " open connection(s) and refused "
          + refused
          + " new one(s), dropping "
          + (atHeal.bytesDropped() - before.bytesDropped())
          + " bytes in flight";
    }

    @Override
    public String describe(NetworkLink link) {
      return "cut the " + link.name() + " link (connections reset, new ones refused)";
    }

    @Override
    public boolean breaksConnections() {
      return true;
    }
  }
}
