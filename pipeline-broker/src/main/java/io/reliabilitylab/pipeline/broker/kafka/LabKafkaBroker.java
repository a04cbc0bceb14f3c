package io.reliabilitylab.pipeline.broker.kafka;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.nio.file.Path;
import org.apiguardian.api.API;

/**
 * A single-node KRaft broker the lab runs and restarts on the same address and data: {@link
 * EmbeddedKafkaBroker} in the lab's JVM, or {@link KafkaBrokerProcess} as its own process.
 */
@API(status = EXPERIMENTAL)
public interface LabKafkaBroker extends AutoCloseable {

  /** Starts the broker, the first time on a freshly formatted log directory, later on the same. */
  BrokerTransition start();

  /** Stops the broker cleanly (its logs flushed); {@link #start()} brings it back. */
  BrokerTransition stop();

  /** {@code 127.0.0.1:<port>}, for clients' {@code bootstrap.servers}; fixed across restarts. */
  String bootstrapServers();

  /**
   * The listener for clients that go through a lab proxy (network faults on the broker link): the
   * proxy listens on {@code advertisedPort} and forwards to {@code host:brokerPort}; the broker
   * advertises {@code host:advertisedPort} on it.
   */
  record ProxiedListener(String host, int brokerPort, int advertisedPort) {

    /** {@code host:advertisedPort}: the bootstrap servers of a proxied client. */
    public String bootstrapServers() {
      return host + ":" + advertisedPort;
    }
  }

  /** The broker's proxied listener, or empty when it has none. */
  default java.util.Optional<ProxiedListener> proxiedListener() {
    return java.util.Optional.empty();
  }

  /** The broker's log directory (the records and the metadata log). */
  Path logDirectory();

  /** A new {@link KafkaTopics} on this broker; the caller closes it. */
  default KafkaTopics topics() {
    return KafkaTopics.connect(bootstrapServers());
  }

  /** One line on what kind of broker this is and where its data lives, for the run record. */
  String describe();

  /** Stops the broker if it runs; the work directory and its data stay. Safe to call twice. */
  @Override
  void close();
}
