package io.reliabilitylab.pipeline.broker.source;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/**
 * Told about every record a {@link DebeziumPublisher} published, in publishing order, once the
 * broker acknowledged it. It runs on the engine's thread: keep it short, and do not stop or restart
 * the publisher from it.
 */
@API(status = EXPERIMENTAL)
@FunctionalInterface
public interface PublishListener {

  /** Called once per acknowledged record (again for a record published again after a rewind). */
  void published(PublishedRecord record);
}
