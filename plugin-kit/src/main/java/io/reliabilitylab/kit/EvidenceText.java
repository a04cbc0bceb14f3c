package io.reliabilitylab.kit;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/** Text as evidence keeps it: a failure message as one line, capped in length. */
@API(status = EXPERIMENTAL)
public final class EvidenceText {

  /** How much of a message goes into the evidence. */
  public static final int MESSAGE_LIMIT = 300;

  private EvidenceText() {}

  /**
   * {@code text} on one line (each run of white space one blank), cut to {@link #MESSAGE_LIMIT}
   * characters with a trailing {@code …} when longer.
   */
  public static String truncate(String text) {
    String oneLine = text.replaceAll("\\s+", " ").strip();
    return oneLine.length() <= MESSAGE_LIMIT ? oneLine : oneLine.substring(0, MESSAGE_LIMIT) + "…";
  }
}
