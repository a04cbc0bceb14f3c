package io.reliabilitylab.spi;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.reliabilitylab.spi.secret.Redactor;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * Failures as the single lines that evidence, run records and the command line show, every
 * {@linkplain Redactor#register registered} secret masked (only those: the patterns of {@link
 * Redactor#redact} would also mask the option named in a message like {@code --source-password
 * needs --source-jdbc-url}, and records and logs apply them anyway).
 *
 * <pre>{@code
 * } catch (IOException e) {
 *   return CheckResult.inconclusive(NAME, "cannot read the table: " + Failures.oneLine(e), evidence);
 * }
 * }</pre>
 */
@API(status = EXPERIMENTAL)
public final class Failures {

  private Failures() {}

  /**
   * The failure's message with its root cause when that is another, e.g. {@code cannot open the
   * table (caused by FileNotFoundException: /w/lab/orders_current/metadata)}; a failure without a
   * message is named by its class.
   */
  public static String oneLine(Throwable failure) {
    String message = failure.getMessage();
    String line =
        message == null || message.isBlank() ? failure.getClass().getSimpleName() : message;
    Throwable root = rootCause(failure);
    if (root != failure) {
      line += " (caused by " + typed(root, root.getClass().getSimpleName()) + ")";
    }
    return oneLine(line);
  }

  /**
   * Every class named, for a failure nobody expected: {@code java.lang.IllegalStateException: boom;
   * caused by java.io.IOException: disk full}.
   */
  public static String oneLineWithTypes(Throwable failure) {
    String line = typed(failure, failure.getClass().getName());
    Throwable root = rootCause(failure);
    if (root != failure) {
      line += "; caused by " + typed(root, root.getClass().getName());
    }
    return oneLine(line);
  }

  /**
   * The failure itself, named by its simple class, without its causes: {@code ZipException: zip END
   * header not found}; for a line that already says where the failure happened.
   */
  public static String named(Throwable failure) {
    return oneLine(typed(failure, failure.getClass().getSimpleName()));
  }

  /**
   * The text squeezed onto one line, registered secrets masked; {@code null} gives the empty
   * string.
   */
  public static String oneLine(@Nullable String text) {
    return text == null ? "" : Redactor.redactRegistered(text.replaceAll("\\s+", " ").strip());
  }

  /** The innermost cause: the failure itself if it has none. */
  public static Throwable rootCause(Throwable failure) {
    Throwable root = failure;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    return root;
  }

  private static String typed(Throwable throwable, String type) {
    String message = throwable.getMessage();
    return message == null || message.isBlank() ? type : type + ": " + message;
  }
}
