package io.reliabilitylab.faults;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import com.google.auto.service.AutoService;
import io.reliabilitylab.spi.fault.FaultInjector;
import io.reliabilitylab.spi.fault.FaultSpec;
import io.reliabilitylab.spi.fault.FaultVariant;
import io.reliabilitylab.spi.pipeline.NetworkLink;
import io.reliabilitylab.spi.pipeline.NetworkLinkCounters;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apiguardian.api.API;

/**
 * {@code network-latency}: every chunk between the pipeline and its source (or broker) is delayed
 * by {@code latency-ms} plus up to {@code jitter-ms} (each way) for {@code duration-ms}, the order
 * of the bytes kept, as a congested or distant network would. Variant {@code broker}.
 *
 * <p>Proof, from the lab's proxy: the chunks it delayed and the longest delay it added. Recovery
 * counts from the heal, once the delayed bytes are through.
 */
@API(status = EXPERIMENTAL)
@AutoService(FaultInjector.class)
public final class NetworkLatencyInjector extends NetworkFault {

  public static final String NAME = "network-latency";

  static final String LATENCY_MS = "latency-ms";
  static final String JITTER_MS = "jitter-ms";
  static final long DEFAULT_LATENCY_MS = 200;
  static final long DEFAULT_JITTER_MS = 100;

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public String description() {
    return "the network between the pipeline and its source (or broker) adds latency and jitter"
        + " for a few seconds while the workload writes";
  }

  @Override
  public List<FaultVariant> variants() {
    return List.of(
        variant(FaultVariant.standard(description())),
        variant(
            FaultVariant.of(
                    BROKER,
                    "latency and jitter between the pipeline and its Kafka broker: the"
                        + " publisher's sends and the job's fetches slow down")
                .with(LINK, BROKER)));
  }

  @Override
  Map<String, String> ownParameters() {
    Map<String, String> parameters = new LinkedHashMap<>();
    parameters.put(
        LATENCY_MS, "added to every chunk, each way (default " + DEFAULT_LATENCY_MS + ")");
    parameters.put(
        JITTER_MS, "at most this much more, uniformly random (default " + DEFAULT_JITTER_MS + ")");
    parameters.put(DIRECTION, "both (the default), to-client or to-server");
    return parameters;
  }

  @Override
  Impairment impairment(FaultSpec spec) {
    Duration latency = Duration.ofMillis(positiveLong(spec, LATENCY_MS, DEFAULT_LATENCY_MS));
    Duration jitter = Duration.ofMillis(nonNegativeLong(spec, JITTER_MS, DEFAULT_JITTER_MS));
    return new Delay(direction(spec, "both"), latency, jitter);
  }

  private record Delay(NetworkLink.Direction direction, Duration latency, Duration jitter)
      implements Impairment {

    @Override
    public void apply(NetworkLink link) {
      link.delay(direction, latency, jitter);
    }

    @Override
    public String effect(NetworkLinkCounters before, NetworkLinkCounters atHeal) {
      long delayed = atHeal.chunksDelayed() - before.chunksDelayed();
      if (delayed <= 0) {
        return null;
      }
      return "delayed "
          + delayed
          + " chunk(s) "
          + directionText(direction)
          + ", by up to "
          + atHeal.maxAddedDelayMillis()
          + " ms";
    }

    @Override
    public String describe(NetworkLink link) {
      return "added "
          + latency.toMillis()
          + " ms (+ up to "
          + jitter.toMillis()
          + " ms jitter) to the "
          + link.name()
          + " link "
          + directionText(direction);
    }
  }
}
