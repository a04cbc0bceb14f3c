package io.reliabilitylab.pipeline.flink;

import java.util.Objects;

/**
 * Whether the job's fault points answered through their fault channel: not tried yet, verified
 * (which processes answered) or failed (why), for the capabilities and the run record.
 *
 * @param status {@code in-jvm}, {@code unverified}, {@code verified} or {@code failed}
 * @param detail who answered, or why not
 */
record FaultChannelState(String status, String detail) {

  static final FaultChannelState IN_JVM =
      new FaultChannelState("in-jvm", "the fault points run in the lab's JVM");

  FaultChannelState {
    Objects.requireNonNull(status, "status");
    Objects.requireNonNull(detail, "detail");
  }

  static FaultChannelState unverified(String directory) {
    return new FaultChannelState("unverified", "channel " + directory + " not tried yet");
  }

  static FaultChannelState verified(String answers) {
    return new FaultChannelState("verified", answers);
  }

  static FaultChannelState failed(String reason) {
    return new FaultChannelState("failed", reason);
  }

  boolean verified() {
    return status.equals("verified");
  }

  boolean failed() {
    return status.equals("failed");
  }

  /** The record's one-line form: {@code verified: 12@host (JobManager), …}. */
  String text() {
    return status + ": " + detail;
  }
}
