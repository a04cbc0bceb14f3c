package io.reliabilitylab.harness.cli;

import io.reliabilitylab.runner.discovery.DiscoveryException;
import io.reliabilitylab.spi.Failures;
import org.jspecify.annotations.Nullable;

/** Turns failures into the single lines the command line prints. */
final class Errors {

  private Errors() {}

  /** One line naming the failure and its root cause, for an error the user did not cause. */
  static String oneLine(Throwable failure) {
    if (failure instanceof DiscoveryException) {
      return oneLine(failure.getMessage());
    }
    return "unexpected error: " + Failures.oneLineWithTypes(failure);
  }

  /** The text squeezed onto one line. */
  static String oneLine(@Nullable String text) {
    return Failures.oneLine(text);
  }
}
