package io.reliabilitylab.harness.bench;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.Locale;
import org.apiguardian.api.API;

/** How the bench's workload groups its changes into source commits. */
@API(status = EXPERIMENTAL)
public enum BenchMode {
  /** One change per source transaction and commit: the hardest case for a CDC source. */
  SINGLE,
  /** Many single-change transactions per commit ({@link BenchConfig#changesPerCommit()}). */
  BATCHED;

  /** The name in the command line and in the JSON, e.g. {@code batched}. */
  public String label() {
    return name().toLowerCase(Locale.ROOT);
  }
}
