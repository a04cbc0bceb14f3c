package io.reliabilitylab.spi.pipeline;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.LinkedHashMap;
import java.util.Map;
import org.apiguardian.api.API;

/**
 * What a {@link NetworkLink} carried and did since it started: the evidence a network fault is
 * proven by. Monotonic, so that a fault compares two readings.
 *
 * @param connectionsAccepted connections the pipeline opened through the link
 * @param connectionsOpen connections open now
 * @param connectionsReset open connections the link reset
 * @param connectionsRefused connections the link reset as soon as they were opened (while cut)
 * @param bytesToServer bytes delivered from the pipeline to the server
 * @param bytesToClient bytes delivered from the server to the pipeline
 * @param bytesHeld bytes that waited behind a freeze before they were delivered (or dropped)
 * @param bytesHeldNow bytes in the link now: read from one side, not yet delivered to the other
 *     (held by a freeze, a latency or a throttle; about 0 on a healthy link)
 * @param bytesDropped bytes read but never delivered: their connection was reset or closed
 * @param chunksDelayed chunks delivered later than read because of added latency
 * @param maxAddedDelayMillis the longest latency the link added to one chunk
 * @param bytesThrottled bytes delivered under a throttle
 * @param throttledMillis time the link paused deliveries to keep a throttle
 */
@API(status = EXPERIMENTAL)
public record NetworkLinkCounters(
    long connectionsAccepted,
    long connectionsOpen,
    long connectionsReset,
    long connectionsRefused,
    long bytesToServer,
    long bytesToClient,
    long bytesHeld,
    long bytesHeldNow,
    long bytesDropped,
    long chunksDelayed,
    long maxAddedDelayMillis,
    long bytesThrottled,
    long throttledMillis) {

  /** The counters as evidence details, prefixed (e.g. {@code proxy_}). */
  public Map<String, String> asDetails(String prefix) {
    Map<String, String> details = new LinkedHashMap<>();
    details.put(prefix + "connections_accepted", Long.toString(connectionsAccepted));
    details.put(prefix + "connections_open", Long.toString(connectionsOpen));
    details.put(prefix + "connections_reset", Long.toString(connectionsReset));
    details.put(prefix + "connections_refused", Long.toString(connectionsRefused));
    details.put(prefix + "bytes_to_server", Long.toString(bytesToServer));
    details.put(prefix + "bytes_to_client", Long.toString(bytesToClient));
    details.put(prefix + "bytes_held", Long.toString(bytesHeld));
    details.put(prefix + "bytes_held_now", Long.toString(bytesHeldNow));
    details.put(prefix + "bytes_dropped", Long.toString(bytesDropped));
    details.put(prefix + "chunks_delayed", Long.toString(chunksDelayed));
    details.put(prefix + "max_added_delay_ms", Long.toString(maxAddedDelayMillis));
    details.put(prefix + "bytes_throttled", Long.toString(bytesThrottled));
    details.put(prefix + "throttled_ms", Long.toString(throttledMillis));
    return details;
  }
}
