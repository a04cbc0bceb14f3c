package io.reliabilitylab.pipeline.broker.wire;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.reliabilitylab.pipeline.flink.envelope.ChangeEnvelope;
import java.util.Objects;
import org.apiguardian.api.API;

/**
 * A decoded Kafka record of the change topic: either a {@link Tombstone} (a null value, which
 * follows a delete) or a {@link Change}.
 */
@API(status = EXPERIMENTAL)
public sealed interface ChangeRecord permits ChangeRecord.Tombstone, ChangeRecord.Change {

  /** The record with a null value that Kafka's log compaction uses after a delete. */
  enum Tombstone implements ChangeRecord {
    INSTANCE
  }

  /** A record that carries one change envelope. */
  record Change(ChangeEnvelope envelope) implements ChangeRecord {
    public Change {
      Objects.requireNonNull(envelope, "envelope");
    }
  }
}
