package io.reliabilitylab.checks;

/** Reading one input of a check failed; carries which input, for an inconclusive verdict. */
final class InputReadException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  private final String source;

  InputReadException(String source, Throwable cause) {
    super("Reading " + source + " failed: " + cause, cause);
    this.source = source;
  }

  String source() {
    return source;
  }
}
