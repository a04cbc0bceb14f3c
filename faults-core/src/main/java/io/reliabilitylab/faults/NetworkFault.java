package io.reliabilitylab.faults;

import io.reliabilitylab.kit.Observation;
import io.reliabilitylab.kit.PipelineView;
import io.reliabilitylab.kit.ProofRule;
import io.reliabilitylab.kit.ProofVerdict;
import io.reliabilitylab.kit.ProvenFault;
import io.reliabilitylab.kit.RecoveryStart;
import io.reliabilitylab.spi.fault.FaultContext;
import io.reliabilitylab.spi.fault.FaultHandle;
import io.reliabilitylab.spi.fault.FaultPosition;
import io.reliabilitylab.spi.fault.FaultSpec;
import io.reliabilitylab.spi.fault.FaultVariant;
import io.reliabilitylab.spi.pipeline.BrokerNetworkLink;
import io.reliabilitylab.spi.pipeline.JobControl;
import io.reliabilitylab.spi.pipeline.LabOptions;
import io.reliabilitylab.spi.pipeline.NetworkLink;
import io.reliabilitylab.spi.pipeline.NetworkLinkCounters;
import io.reliabilitylab.spi.pipeline.PipelineCapability;
import io.reliabilitylab.spi.pipeline.SourceNetworkLink;
import io.reliabilitylab.spi.pipeline.TableAccess;
import io.reliabilitylab.spi.pipeline.ZooKeeperNetworkLink;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeoutException;

/**
 * What the network faults share: the link they impair ({@code link} = {@value #SOURCE}, {@value
 * #BROKER} or {@value #ZOOKEEPER}), for how long ({@code duration-ms}, the workload writing
 * meanwhile), the proof read from the link's counters at the heal, and a recovery counted from the
 * moment the pipeline shows it got over the impairment (held bytes drained, or a new connection
 * after a cut).
 *
 * <p>Every variant runs its scenario with {@value LabOptions#NETWORK_PROXY}, so that the pipeline
 * routes its connections through the lab's proxy; the other scenarios run without the extra hop.
 */
abstract class NetworkFault extends BuiltInFault {

  static final String LINK = "link";
  static final String DIRECTION = "direction";
  static final String DURATION_MS = "duration-ms";
  static final String SOURCE = "source";
  static final String BROKER = "broker";
  static final String ZOOKEEPER = "zookeeper";
  static final long DEFAULT_DURATION_MS = 2_000;

  private static final Duration POLL = Duration.ofMillis(20);
  private static final int MAX_SYMPTOMS = 20;

  /** The impairment this fault applies, and how its effect shows in the link's counters. */
  interface Impairment {

    /** Applies it. */
    void apply(NetworkLink link);

    /** What it did between two readings, or null when it touched nothing. */
    String effect(NetworkLinkCounters before, NetworkLinkCounters atHeal);

    /** One line on it, for the evidence's "what". */
    String describe(NetworkLink link);

    /** Whether the pipeline must open a new connection to get over it (a cut). */
    default boolean breaksConnections() {
      return false;
    }
  }

  /** Reads this fault's impairment from the spec; unknown values fail with a one-line reason. */
  abstract Impairment impairment(FaultSpec spec);

  /** The parameters of this fault besides {@code link} and {@code duration-ms}. */
  abstract Map<String, String> ownParameters();

  @Override
  public final Set<Class<? extends PipelineCapability>> requiredCapabilities() {
    // the link itself depends on the spec's link parameter (extraCapabilities)
    return Set.of(JobControl.class, TableAccess.class);
  }

  @Override
  public final Set<FaultPosition.Kind> supportedPositions() {
    return EnumSet.of(FaultPosition.Kind.NOW);
  }

  @Override
  final Map<String, String> parameters() {
    Map<String, String> parameters = new LinkedHashMap<>();
    parameters.put(
        LINK,
        "source (the default: the pipeline's source database), broker (its Kafka broker) or"
            + " zookeeper (the Flink cluster's processes' ZooKeeper)");
    parameters.put(
        DURATION_MS,
        "how long the link stays impaired, in milliseconds (default " + DEFAULT_DURATION_MS + ")");
    parameters.putAll(ownParameters());
    return parameters;
  }

  @Override
  final Set<Class<? extends PipelineCapability>> extraCapabilities(FaultSpec spec) {
    return Set.of(linkCapability(link(spec)));
  }

  /** A variant of this fault: on the proxied pipeline, needing the link it impairs. */
  static FaultVariant variant(FaultVariant variant) {
    String link = variant.faultParameters().getOrDefault(LINK, SOURCE);
    return variant
        .withPipelineOption(LabOptions.NETWORK_PROXY, "true")
        .requires(linkCapability(link));
  }

  @Override
  final FaultHandle start(FaultContext context, PipelineView view) throws Exception {
    FaultSpec spec = context.spec();
    Impairment impairment = impairment(spec);
    Duration duration = Duration.ofMillis(positiveLong(spec, DURATION_MS, DEFAULT_DURATION_MS));
    NetworkLink link = linkOf(context, link(spec));
    Clock clock = context.clock();

    Observation baseline = view.observe();
    NetworkLinkCounters before = link.counters();
    ProvenFault.Builder fault =
        ProvenFault.builder(context, view, baseline)
            .detail("link", link.name())
            .detail("proxy", link.address())
            .detail("target", link.target())
            .detail("duration_ms", Long.toString(duration.toMillis()))
            .details(spec.parameters())
            .healing(link::heal);
    impairment.apply(link);
    Instant impairedAt = clock.instant();
    // the writes begin now, and flow (or not) through the impaired link
    context.signalArmed();
    Thread.sleep(duration.toMillis());
    NetworkLinkCounters atHeal = link.counters();
    link.heal();
    Instant healedAt = clock.instant();
    Map<String, String> counters = new LinkedHashMap<>(atHeal.asDetails("proxy_at_heal_"));
    counters.put("impaired_at", impairedAt.toString());
    counters.put("healed_at", healedAt.toString());
    if (ZOOKEEPER.equals(link(spec))) {
      ZooKeeperNetworkLink zooKeeper =
          context.pipeline().capability(ZooKeeperNetworkLink.class).orElseThrow();
      fault.recoveryDetails(recovered -> zooKeeperSymptoms(zooKeeper, impairedAt));
    }
    return fault
        .what(impairment.describe(link) + " for " + duration.toMillis() + " ms")
        .details(counters)
        .proof(counted(impairment, link, before, atHeal, impairedAt, healedAt))
        .recoveryFrom(overcome(impairment, link, atHeal, clock))
        .build();
  }

  /**
   * What the cluster's processes logged about their ZooKeeper sessions and leadership from the cut
   * to the recovery: the cluster's own symptoms, next to the proxy's counters.
   */
  private static Map<String, String> zooKeeperSymptoms(
      ZooKeeperNetworkLink zooKeeper, Instant impairedAt) {
    List<String> symptoms = zooKeeper.zooKeeperSymptomsSince(impairedAt, MAX_SYMPTOMS);
    Map<String, String> details = new LinkedHashMap<>();
    details.put(
        "zookeeper_symptoms",
        symptoms.isEmpty()
            ? "none logged by the cluster's processes"
            : symptoms.size() + (symptoms.size() == MAX_SYMPTOMS ? " or more" : ""));
    for (int i = 0; i < symptoms.size(); i++) {
      // two digits: the record orders details by name
      details.put(String.format(Locale.ROOT, "zookeeper_symptom_%02d", i + 1), symptoms.get(i));
    }
    return details;
  }

  /**
   * Proven by the link's own counters: the impairment touched the pipeline's traffic (held,
   * delayed, throttled bytes; reset connections). A link nothing flowed through proves nothing.
   */
  private static ProofRule counted(
      Impairment impairment,
      NetworkLink link,
      NetworkLinkCounters before,
      NetworkLinkCounters atHeal,
      Instant impairedAt,
      Instant healedAt) {
    String effect = impairment.effect(before, atHeal);
    return (baseline, now) -> {
      if (effect == null) {
        return ProofVerdict.refuted(
            "the "
                + link.name()
                + " link carried nothing the impairment could act on between "
                + impairedAt
                + " and "
                + healedAt
                + " ("
                + (atHeal.bytesToClient() - before.bytesToClient())
                + " bytes to the pipeline, "
                + (atHeal.bytesToServer() - before.bytesToServer())
                + " to the server)");
      }
      return ProofVerdict.proven(
          impairedAt,
          List.of(
              "the lab's proxy "
                  + link.address()
                  + " -> "
                  + link.target()
                  + " ("
                  + link.name()
                  + " link) "
                  + effect
                  + " between "
                  + impairedAt
                  + " and "
                  + healedAt),
          Map.of());
    };
  }

  /**
   * Recovery counts from the moment the pipeline got over the impairment: after a cut, a new
   * connection through the link (the connector reconnected, or the restarted job's did); otherwise
   * the held and delayed bytes delivered.
   */
  private static RecoveryStart overcome(
      Impairment impairment, NetworkLink link, NetworkLinkCounters atHeal, Clock clock) {
    return (faultAt, timeout) -> {
      long deadline = System.nanoTime() + timeout.toNanos();
      while (System.nanoTime() - deadline < 0) {
        NetworkLinkCounters now = link.counters();
        Instant at = clock.instant();
        Map<String, String> details = new LinkedHashMap<>(now.asDetails("proxy_at_recovery_"));
        if (impairment.breaksConnections()) {
          if (now.connectionsAccepted() > atHeal.connectionsAccepted()
              && now.connectionsOpen() > 0) {
            details.put("reconnected_at", at.toString());
            return new RecoveryStart.Moment(at, details);
          }
        } else if (now.bytesHeldNow() == 0) {
          details.put("drained_at", at.toString());
          return new RecoveryStart.Moment(at, details);
        }
        Thread.sleep(POLL.toMillis());
      }
      throw new TimeoutException(
          impairment.breaksConnections()
              ? "nothing reconnected through the " + link.name() + " link within " + timeout
              : "the " + link.name() + " link still held bytes after " + timeout);
    };
  }

  static NetworkLink.Direction direction(FaultSpec spec, String defaultValue) {
    String value = choice(spec, DIRECTION, defaultValue, Set.of("both", "to-server", "to-client"));
    return NetworkLink.Direction.valueOf(value.toUpperCase(Locale.ROOT).replace('-', '_'));
  }

  static String directionText(NetworkLink.Direction direction) {
    return switch (direction) {
      case BOTH -> "both ways";
      case TO_SERVER -> "towards the server";
      case TO_CLIENT -> "towards the pipeline";
    };
  }

  private static String link(FaultSpec spec) {
    return choice(spec, LINK, SOURCE, Set.of(SOURCE, BROKER, ZOOKEEPER));
  }

  private static Class<? extends PipelineCapability> linkCapability(String link) {
    return switch (link) {
      case BROKER -> BrokerNetworkLink.class;
      case ZOOKEEPER -> ZooKeeperNetworkLink.class;
      default -> SourceNetworkLink.class;
    };
  }

  private static NetworkLink linkOf(FaultContext context, String link) {
    return switch (link) {
      case BROKER ->
          context.pipeline().capability(BrokerNetworkLink.class).orElseThrow().brokerLink();
      case ZOOKEEPER ->
          context.pipeline().capability(ZooKeeperNetworkLink.class).orElseThrow().zooKeeperLink();
      default -> context.pipeline().capability(SourceNetworkLink.class).orElseThrow().sourceLink();
    };
  }
}
