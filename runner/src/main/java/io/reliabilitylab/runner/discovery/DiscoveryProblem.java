package io.reliabilitylab.runner.discovery;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.Objects;
import org.apiguardian.api.API;

/**
 * Something wrong with the implementations registered for one SPI: the lab reports it rather than
 * guessing which implementation was meant.
 *
 * @param kind what was being discovered, for example {@code check}
 * @param reason the class of problem
 * @param message one line that says what is wrong and what to do about it
 */
@API(status = EXPERIMENTAL)
public record DiscoveryProblem(String kind, Reason reason, String message) {

  /** The classes of discovery problem. */
  @API(status = EXPERIMENTAL)
  public enum Reason {
    /** A registered class is missing, is not an implementation, or cannot be instantiated. */
    BROKEN_PROVIDER,
    /**
     * A jar of the plugin path is missing, unreadable, not a jar, or registers a class that cannot
     * be loaded as its service; the jar was left out.
     */
    BROKEN_JAR,
    /** A name or description that users could not type or read. */
    INVALID_NAME,
    /** Two or more implementations answer to one name. */
    DUPLICATE_NAME
  }

  public DiscoveryProblem {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(reason, "reason");
    Objects.requireNonNull(message, "message");
  }
}
