package io.reliabilitylab.source.postgres;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.reliabilitylab.source.jdbc.CaptureNotReadyException;
import java.util.List;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * A PostgreSQL server cannot be captured as it is: a setting, a role attribute, a grant or a
 * publication is missing, or the capture role cannot log in. The message is one line naming each
 * problem and the statement that fixes it.
 */
@API(status = EXPERIMENTAL)
public final class PostgresNotReadyException extends CaptureNotReadyException {

  private static final long serialVersionUID = 1L;

  public PostgresNotReadyException(List<String> problems, @Nullable Throwable cause) {
    super(message(problems), problems, cause);
  }

  private static String message(List<String> problems) {
    if (problems.isEmpty()) {
      throw new IllegalArgumentException("A source that is not ready has at least one problem");
    }
    // each problem ends with the statement that fixes it, and so with a semicolon
    StringBuilder message =
        new StringBuilder("The PostgreSQL source is not ready for change capture:");
    for (String problem : problems) {
      String line = problem.strip().replace('\n', ' ');
      message.append(' ').append(line).append(line.endsWith(";") ? "" : ";");
    }
    return message.toString();
  }
}
