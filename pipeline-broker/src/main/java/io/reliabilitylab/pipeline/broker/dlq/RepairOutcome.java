package io.reliabilitylab.pipeline.broker.dlq;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.reliabilitylab.pipeline.broker.wire.WireRecord;
import io.reliabilitylab.pipeline.flink.envelope.ChangeEnvelope;
import java.util.Objects;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * What {@link Repair} made of a dead letter: the {@link Repaired} change ready to republish, or
 * {@link Unrepairable} with the reason.
 */
@API(status = EXPERIMENTAL)
public sealed interface RepairOutcome permits RepairOutcome.Repaired, RepairOutcome.Unrepairable {

  /**
   * The intended change, recovered and re-encoded in the wire format.
   *
   * @param envelope the recovered change
   * @param record the key (the row's primary key) and value to republish to the main topic
   * @param strippedPrefixBytes how many leading bytes of the original value were dropped
   * @param keyVerified whether the original key was readable and agreed with the recovered change
   *     (false when the dead letter had no key or an unreadable one: the key then comes from the
   *     change alone)
   */
  record Repaired(
      ChangeEnvelope envelope, WireRecord record, int strippedPrefixBytes, boolean keyVerified)
      implements RepairOutcome {
    public Repaired {
      Objects.requireNonNull(envelope, "envelope");
      Objects.requireNonNull(record, "record");
    }
  }

  /**
   * No change could be recovered.
   *
   * @param reason what stood in the way, free of payload
   * @param errorType the wire format's error type of the last attempt (e.g. {@code
   *     malformed-json}), if one was made
   */
  record Unrepairable(String reason, @Nullable String errorType) implements RepairOutcome {
    public Unrepairable {
      Objects.requireNonNull(reason, "reason");
    }
  }
}
