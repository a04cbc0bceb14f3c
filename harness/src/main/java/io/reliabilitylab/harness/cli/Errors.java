package io.reliabilitylab.harness.cli;

import io.reliabilitylab.runner.discovery.DiscoveryException;
import org.jspecify.annotations.Nullable;

/** Turns failures into the single lines the command line prints. */
final class Errors {

  private Errors() {}

  /** One line naming the failure and its root cause, for an error the user did not cause. */
  static String oneLine(Throwable failure) {
    if (failure instanceof DiscoveryException) {
      return oneLine(failure.getMessage());
    }
    Throwable root = failure;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    String line = "unexpected error: " + describe(failure);
    if (root != failure) {
      line += "; caused by " + describe(root);
    }
    return line;
  }

  /** The text squeezed onto one line. */
  static String oneLine(@Nullable String text) {
    return text == null ? "" : text.replaceAll("\\s+", " ").strip();
  }

  private static String describe(Throwable throwable) {
    String message = throwable.getMessage();
    return message == null || message.isBlank()
        ? throwable.getClass().getName()
        : throwable.getClass().getName() + ": " + oneLine(message);
  }
}
