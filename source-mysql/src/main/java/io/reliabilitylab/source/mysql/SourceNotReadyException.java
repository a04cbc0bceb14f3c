package io.reliabilitylab.source.mysql;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.reliabilitylab.source.jdbc.CaptureNotReadyException;
import java.util.List;
import org.apiguardian.api.API;

/**
 * The source database cannot be captured as it is: binlog off, a wrong binlog setting, missing
 * privileges, or no connection. The message is one line naming each missing setting and what to do.
 */
@API(status = EXPERIMENTAL)
public final class SourceNotReadyException extends CaptureNotReadyException {

  private static final long serialVersionUID = 1L;

  public SourceNotReadyException(List<String> problems) {
    this(problems, null);
  }

  public SourceNotReadyException(
      List<String> problems, @org.jspecify.annotations.Nullable Throwable cause) {
    super(message(problems), problems, cause);
  }

  private static String message(List<String> problems) {
    if (problems.isEmpty()) {
      throw new IllegalArgumentException("A source that is not ready has at least one problem");
    }
    String joined = String.join("; ", problems);
    return "The source is not ready for change capture: " + joined.replace('\n', ' ');
  }
}
