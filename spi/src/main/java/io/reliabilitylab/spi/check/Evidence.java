package io.reliabilitylab.spi.check;

import static org.apiguardian.api.API.Status.STABLE;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apiguardian.api.API;

/**
 * What a verdict rests on: counts, SHA-256 digests of canonical row sets, facts (inputs read, the
 * snapshot or checkpoint compared) and a capped list of samples. Counts are always complete even
 * when samples are capped; {@code samplesOmitted} says how many were left out.
 *
 * <p>{@code Evidence.builder().count("missing", 2).digest("expected", hex).sample(s).build()}
 */
@API(status = STABLE)
public record Evidence(
    Map<String, Long> counts,
    Map<String, String> digests,
    Map<String, String> facts,
    List<EvidenceSample> samples,
    long samplesOmitted) {

  /** No evidence at all (a check that could not run still says why, in its summary). */
  public static final Evidence NONE = new Evidence(Map.of(), Map.of(), Map.of(), List.of(), 0);

  public Evidence {
    counts = Collections.unmodifiableMap(new LinkedHashMap<>(counts));
    digests = Collections.unmodifiableMap(new LinkedHashMap<>(digests));
    facts = Collections.unmodifiableMap(new LinkedHashMap<>(facts));
    samples = List.copyOf(samples);
  }

  /** The count with this name, or 0. */
  public long count(String name) {
    return counts.getOrDefault(name, 0L);
  }

  /** A builder that caps samples at {@code sampleLimit}, counting the rest. */
  public static Builder builder(int sampleLimit) {
    return new Builder(sampleLimit);
  }

  /** A builder with the default cap of 20 samples. */
  public static Builder builder() {
    return new Builder(20);
  }

  /** Collects evidence; samples beyond the cap are counted, not kept. */
  public static final class Builder {
    private final int sampleLimit;
    private final Map<String, Long> counts = new LinkedHashMap<>();
    private final Map<String, String> digests = new LinkedHashMap<>();
    private final Map<String, String> facts = new LinkedHashMap<>();
    private final List<EvidenceSample> samples = new ArrayList<>();
    private long omitted;

    private Builder(int sampleLimit) {
      if (sampleLimit < 0) {
        throw new IllegalArgumentException("sampleLimit must be >= 0");
      }
      this.sampleLimit = sampleLimit;
    }

    public Builder count(String name, long value) {
      counts.put(name, value);
      return this;
    }

    public Builder increment(String name) {
      counts.merge(name, 1L, Long::sum);
      return this;
    }

    public Builder digest(String name, String sha256Hex) {
      digests.put(name, sha256Hex);
      return this;
    }

    public Builder fact(String name, String value) {
      facts.put(name, value);
      return this;
    }

    public Builder sample(EvidenceSample sample) {
      if (samples.size() < sampleLimit) {
        samples.add(sample);
      } else {
        omitted++;
      }
      return this;
    }

    public Evidence build() {
      return new Evidence(counts, digests, facts, samples, omitted);
    }
  }
}
