package io.reliabilitylab.runner.phase;

/** How the lifecycle words an exception for a record: one line, with its root cause. */
final class Failures {

  private Failures() {}

  static String oneLine(Throwable e) {
    Throwable root = e;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    String message = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    return root == e
        ? message
        : message
            + " (caused by "
            + root.getClass().getSimpleName()
            + ": "
            + root.getMessage()
            + ")";
  }
}
