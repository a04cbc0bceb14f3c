package io.reliabilitylab.pipeline.direct.faults;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.Arrays;
import java.util.Locale;
import java.util.Objects;
import java.util.stream.Collectors;
import org.apiguardian.api.API;

/** What an armed fault point does when the job reaches its position. */
@API(status = EXPERIMENTAL)
public enum FaultAction {
  /** Throw an exception that carries the fault id. */
  THROW("throw"),
  /** Block until the fault is disarmed (or its stall limit passes), then go on unchanged. */
  STALL("stall"),
  /** Throw from {@code notifyCheckpointComplete}, after the checkpoint completed. */
  THROW_ON_CHECKPOINT_COMPLETE("throw-on-checkpoint-complete"),
  /** Fail an Iceberg commit before the metadata swap: nothing is committed. */
  FAIL_COMMIT_BEFORE_SWAP("fail-commit-before-swap"),
  /** Let an Iceberg commit swap the metadata, then throw: the commit did happen. */
  FAIL_COMMIT_AFTER_SWAP("fail-commit-after-swap"),
  /** Let an Iceberg commit swap the metadata, then throw {@code CommitStateUnknownException}. */
  COMMIT_STATE_UNKNOWN("commit-state-unknown");

  private final String text;

  FaultAction(String text) {
    this.text = text;
  }

  /** The text form, e.g. {@code fail-commit-after-swap}, which {@link #parse} reads back. */
  public String text() {
    return text;
  }

  /** Reads the text form (or the constant's name); a bad input's message lists the actions. */
  public static FaultAction parse(String text) {
    Objects.requireNonNull(text, "text");
    String wanted = text.trim().toLowerCase(Locale.ROOT).replace('_', '-');
    for (FaultAction action : values()) {
      if (action.text.equals(wanted)) {
        return action;
      }
    }
    throw new IllegalArgumentException(
        "Unknown fault action '"
            + text
            + "'; use one of "
            + Arrays.stream(values()).map(FaultAction::text).collect(Collectors.joining(", ")));
  }

  @Override
  public String toString() {
    return text;
  }
}
