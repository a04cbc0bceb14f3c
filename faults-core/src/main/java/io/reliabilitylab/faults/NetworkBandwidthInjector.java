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
import org.apiguardian.api.API;

/**
 * {@code network-bandwidth}: the link between the pipeline and its source (or broker) is throttled
 * to {@code bytes-per-second} (per connection) for {@code duration-ms}, so that the change stream
 * falls behind the writes and must catch up after. Variant {@code broker}.
 *
 * <p>Proof, from the lab's proxy: the bytes delivered under the throttle and the time it paused
 * deliveries to keep it. Recovery counts from the heal, once nothing is held.
 */
@API(status = EXPERIMENTAL)
@AutoService(FaultInjector.class)
public final class NetworkBandwidthInjector extends NetworkFault {

  public static final String NAME = "network-bandwidth";

  static final String BYTES_PER_SECOND = "bytes-per-second";
  static final long DEFAULT_BYTES_PER_SECOND = 4_096;

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public String description() {
    return "the network between the pipeline and its source (or broker) is throttled to a few KiB"
        + " per second for a few seconds while the workload writes, then must catch up";
  }

  @Override
  public List<FaultVariant> variants() {
    return List.of(
        variant(FaultVariant.standard(description())),
        variant(
            FaultVariant.of(
                    BROKER,
                    "the pipeline's link to its Kafka broker is throttled: fetches and sends fall"
                        + " behind")
                .with(LINK, BROKER)));
  }

  @Override
  Map<String, String> ownParameters() {
    Map<String, String> parameters = new LinkedHashMap<>();
    parameters.put(
        BYTES_PER_SECOND,
        "at most this many bytes per second per connection (default "
            + DEFAULT_BYTES_PER_SECOND
            + ")");
    parameters.put(DIRECTION, "both (the default), to-client or to-server");
    return parameters;
  }

  @Override
  Impairment impairment(FaultSpec spec) {
    return new Throttle(
        direction(spec, "both"), positiveLong(spec, BYTES_PER_SECOND, DEFAULT_BYTES_PER_SECOND));
  }

  private record Throttle(NetworkLink.Direction direction, long bytesPerSecond)
      implements Impairment {

    @Override
    public void apply(NetworkLink link) {
      link.throttle(direction, bytesPerSecond);
    }

    @Override
    public String effect(NetworkLinkCounters before, NetworkLinkCounters atHeal) {
      long throttled = atHeal.bytesThrottled() - before.bytesThrottled();
      if (throttled <= 0) {
        return null;
      }
      return "delivered "
          + throttled
          + " bytes "
          + directionText(direction)
          + " at "
          + bytesPerSecond
          + " B/s, pausing "
          + (atHeal.throttledMillis() - before.throttledMillis())
          + " ms to keep the throttle";
    }

    @Override
    public String describe(NetworkLink link) {
      return "throttled the "
          + link.name()
          + " link to "
          + bytesPerSecond
          + " B/s "
          + directionText(direction);
    }
  }
}
