package io.reliabilitylab.pipeline.flink.cluster;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.runtime.highavailability.ClientHighAvailabilityServices;
import org.apache.flink.runtime.highavailability.HighAvailabilityServicesUtils;
import org.apache.flink.runtime.leaderretrieval.LeaderRetrievalListener;
import org.apache.flink.runtime.leaderretrieval.LeaderRetrievalService;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Follows the leading JobManager's REST address in ZooKeeper, as Flink's clients retrieve it: the
 * address is empty while no JobManager leads (a killed leader's session has not expired yet, or the
 * standby has not taken over).
 */
final class LeaderWatch implements LeaderRetrievalListener, AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(LeaderWatch.class);

  private final ClientHighAvailabilityServices services;
  private final LeaderRetrievalService retrieval;
  private volatile @Nullable String address;

  private LeaderWatch(ClientHighAvailabilityServices services) {
    this.services = services;
    this.retrieval = services.getClusterRestEndpointLeaderRetriever();
  }

  static LeaderWatch start(Configuration configuration) throws Exception {
    LeaderWatch watch =
        new LeaderWatch(
            HighAvailabilityServicesUtils.createClientHAService(
                configuration,
                error -> LOG.warn("The ZooKeeper leader watch failed: {}", error.toString())));
    watch.retrieval.start(watch);
    return watch;
  }

  /** The leader's REST address ({@code http://127.0.0.1:port}), or null while none leads. */
  @Nullable String address() {
    return address;
  }

  @Override
  public void notifyLeaderAddress(@Nullable String leaderAddress, java.util.@Nullable UUID id) {
    String now = leaderAddress == null || leaderAddress.isEmpty() ? null : leaderAddress;
    LOG.info("ZooKeeper names REST leader {}", now == null ? "none" : now);
    address = now;
  }

  @Override
  public void handleError(Exception exception) {
    LOG.warn("The ZooKeeper leader watch failed: {}", exception.toString());
  }

  @Override
  public void close() {
    try {
      retrieval.stop();
      services.close();
    } catch (Exception e) {
      LOG.debug("Closing the ZooKeeper leader watch: {}", e.toString());
    }
  }
}
