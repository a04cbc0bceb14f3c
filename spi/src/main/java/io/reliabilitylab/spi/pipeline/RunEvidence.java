package io.reliabilitylab.spi.pipeline;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.reliabilitylab.spi.check.DlqRecord;
import io.reliabilitylab.spi.check.LinkageRecord;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * Evidence a pipeline adds to a run's record beyond its tables: offsets ↔ checkpoint ↔ snapshot
 * linkage, dead letters and what became of quarantined records. The runner asks at two moments of a
 * scenario and records the answer as it is, whatever the pipeline; a pipeline with nothing to add
 * does not offer this capability.
 *
 * <pre>{@code
 * public Observation observe(Moment moment) throws Exception {
 *   return Observation.builder()
 *       .linkage(broker.observeLinkage(moment.label()))
 *       .judgedLinkage(broker.observations())
 *       .build();
 * }
 * }</pre>
 */
@API(status = EXPERIMENTAL)
public interface RunEvidence extends PipelineCapability {

  /** When the runner asks. */
  enum Moment {
    /** The baseline workload caught up; its reconciliation comes next, before any fault. */
    BASELINE("baseline"),
    /** The whole workload caught up; the final checks come next. */
    FINAL("final");

    private final String label;

    Moment(String label) {
      this.label = label;
    }

    /** The label an observation made at this moment carries: {@code baseline}, {@code final}. */
    public String label() {
      return label;
    }
  }

  /**
   * Observes the pipeline now. At {@link Moment#FINAL} this may wait (boundedly) for a steady
   * state, e.g. consumer offsets committed up to the log end.
   */
  Observation observe(Moment moment) throws Exception;

  /**
   * What a pipeline showed at one moment; empty parts are left out of the record.
   *
   * @param linkage the linkage observed at this moment, recorded as the run's baseline or final
   *     linkage
   * @param repairLinkage the latest linkage observed after a repair replay, if one was made
   * @param judgedLinkage the observations the linkage check judges, in time order (not those a
   *     fault made while it broke something)
   * @param deadLetters every record in the dead-letter topic
   * @param quarantine what became of the quarantined records, or null when nothing was quarantined
   */
  record Observation(
      @Nullable LinkageRecord linkage,
      @Nullable LinkageRecord repairLinkage,
      List<LinkageRecord> judgedLinkage,
      List<DlqRecord> deadLetters,
      @Nullable Quarantine quarantine) {

    /** Nothing observed. */
    public static final Observation NONE = builder().build();

    public Observation {
      judgedLinkage = List.copyOf(judgedLinkage);
      deadLetters = List.copyOf(deadLetters);
    }

    /** A builder of an observation, every part empty until set. */
    public static Builder builder() {
      return new Builder();
    }

    /** Builds an {@link Observation}, so that a part added later breaks no pipeline's code. */
    public static final class Builder {
      private @Nullable LinkageRecord linkage;
      private @Nullable LinkageRecord repairLinkage;
      private final List<LinkageRecord> judgedLinkage = new ArrayList<>();
      private final List<DlqRecord> deadLetters = new ArrayList<>();
      private @Nullable Quarantine quarantine;

      private Builder() {}

      public Builder linkage(@Nullable LinkageRecord observed) {
        this.linkage = observed;
        return this;
      }

      public Builder repairLinkage(@Nullable LinkageRecord observed) {
        this.repairLinkage = observed;
        return this;
      }

      public Builder judgedLinkage(List<LinkageRecord> observations) {
        judgedLinkage.addAll(observations);
        return this;
      }

      public Builder deadLetters(List<DlqRecord> records) {
        deadLetters.addAll(records);
        return this;
      }

      public Builder quarantine(@Nullable Quarantine section) {
        this.quarantine = section;
        return this;
      }

      public Observation build() {
        return new Observation(linkage, repairLinkage, judgedLinkage, deadLetters, quarantine);
      }
    }
  }

  /**
   * What became of quarantined records.
   *
   * @param state one line on their fate, e.g. {@code retained with repair replay recorded}
   * @param replay the repaired record republished, if one was
   * @param details anything else observed (free form: numbers, text, nested maps)
   */
  record Quarantine(String state, @Nullable Replay replay, Map<String, @Nullable Object> details) {
    public Quarantine {
      Objects.requireNonNull(state, "state");
      details = Collections.unmodifiableMap(new LinkedHashMap<>(details));
    }
  }

  /**
   * A repaired record republished in place of a quarantined one.
   *
   * @param mode how it was repaired, e.g. {@code decode, re-encode, republish with the key}
   * @param topic where it was produced
   * @param partition its partition
   * @param offset its offset
   * @param timestampMs the broker's timestamp
   */
  record Replay(String mode, String topic, int partition, long offset, long timestampMs) {
    public Replay {
      Objects.requireNonNull(mode, "mode");
      Objects.requireNonNull(topic, "topic");
    }
  }
}
