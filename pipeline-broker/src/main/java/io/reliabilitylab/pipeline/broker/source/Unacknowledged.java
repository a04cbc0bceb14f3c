package io.reliabilitylab.pipeline.broker.source;

import java.util.Map;
import org.apache.kafka.clients.producer.ProducerConfig;

/**
 * What the connector does with a change the broker has not acknowledged: the faithful {@link
 * #STOP}, or one of two negative controls, each with the producer settings it needs.
 */
enum Unacknowledged {
  /** The engine stops without marking the change processed; it is read again on restart. */
  STOP("the engine stops; read again on restart (at least once)"),
  /**
   * BROKEN: logged, dropped and marked processed all the same (at most once); the producer gives up
   * within a second however it is stuck.
   */
  DROP("logged and dropped, marked processed (BROKEN: at most once)"),
  /**
   * BROKEN: the producer gives up waiting after {@value #RESEND_REQUEST_TIMEOUT_MS} ms and sends
   * the request again without idempotence; over a slow link both copies land.
   */
  RESEND(
      "sent again after "
          + Unacknowledged.RESEND_REQUEST_TIMEOUT_MS
          + " ms without an answer, without idempotence (BROKEN: lands twice over a slow link)");

  /**
   * Far above what a produce request takes on an unimpaired link, even a loaded machine's first
   * (300 ms gave up on one in a baseline); below a round trip over 1 s of latency each way.
   */
  static final int RESEND_REQUEST_TIMEOUT_MS = 1500;

  private final String description;

  Unacknowledged(String description) {
    this.description = description;
  }

  /** What a run record shows for it. */
  String description() {
    return description;
  }

  /** Sets the producer settings this choice needs over the faithful ones. */
  void configure(Map<String, Object> producer) {
    switch (this) {
      case STOP -> {}
      case DROP -> {
        producer.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, false);
        producer.put(ProducerConfig.RETRIES_CONFIG, 0);
        producer.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 500);
        producer.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 1000);
        // given up on within a second however it is stuck: a client that lost every broker it
        // knew bootstraps again and forgets the topic, and a send then waits for its metadata
        producer.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, 1000);
      }
      case RESEND -> {
        producer.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, false);
        producer.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, RESEND_REQUEST_TIMEOUT_MS);
      }
    }
  }
}
