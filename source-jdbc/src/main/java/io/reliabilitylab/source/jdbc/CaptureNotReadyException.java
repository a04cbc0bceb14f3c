package io.reliabilitylab.source.jdbc;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.List;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * A source database cannot be captured as it is (a setting, a privilege, a publication missing, or
 * no connection): what a scenario reports as aborted, whatever the database. Each source module's
 * subclass words the one-line message for its engine.
 */
@API(status = EXPERIMENTAL)
public abstract class CaptureNotReadyException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  @SuppressWarnings("serial") // an immutable List.copyOf list, which is serializable
  private final List<String> problems;

  protected CaptureNotReadyException(
      String message, List<String> problems, @Nullable Throwable cause) {
    super(message, cause);
    if (problems.isEmpty()) {
      throw new IllegalArgumentException("A source that is not ready has at least one problem");
    }
    this.problems = List.copyOf(problems);
  }

  /** Each problem found, one sentence saying what is wrong and what to do. */
  public List<String> problems() {
    return problems;
  }
}
