package io.reliabilitylab.kit;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * Names Flink's {@code CheckpointFailureReason} from the message a pipeline reports for a failed
 * checkpoint: Flink's checkpoint statistics keep only the reason's message, e.g. {@code Checkpoint
 * expired before completing.}, and the evidence should name the reason itself. Kept as text so that
 * this module needs no Flink classes; a message Flink does not use is reported as it is.
 *
 * <p>{@code CheckpointFailureReasons.withName("Checkpoint expired before completing.")} gives
 * {@code Checkpoint expired before completing. (CHECKPOINT_EXPIRED)}.
 */
@API(status = EXPERIMENTAL)
public final class CheckpointFailureReasons {

  // The messages of org.apache.flink.runtime.checkpoint.CheckpointFailureReason in Flink 1.20,
  // read from its class file; matched exactly, else as the start of a longer message.
  private static final Map<String, String> BY_MESSAGE = new LinkedHashMap<>();

  static {
    BY_MESSAGE.put("Periodic checkpoint scheduler is shut down.", "PERIODIC_SCHEDULER_SHUTDOWN");
    BY_MESSAGE.put(
        "The maximum number of queued checkpoint requests exceeded",
        "TOO_MANY_CHECKPOINT_REQUESTS");
    BY_MESSAGE.put(
        "The minimum time between checkpoints is still pending. Checkpoint will be triggered after the minimum time.",
        "MINIMUM_TIME_BETWEEN_CHECKPOINTS");
    BY_MESSAGE.put(
        "Not all required tasks are currently running.", "NOT_ALL_REQUIRED_TASKS_RUNNING");
    BY_MESSAGE.put(
        "An Exception occurred while triggering the checkpoint. IO-problem detected.",
        "IO_EXCEPTION");
    BY_MESSAGE.put("Blocking output edge exists in running tasks.", "BLOCKING_OUTPUT_EXIST");
    BY_MESSAGE.put("Asynchronous task checkpoint failed.", "CHECKPOINT_ASYNC_EXCEPTION");
    BY_MESSAGE.put(
        "The checkpoint was aborted due to exception of other subtasks sharing the ChannelState file.",
        "CHANNEL_STATE_SHARED_STREAM_EXCEPTION");
    BY_MESSAGE.put("Checkpoint expired before completing.", "CHECKPOINT_EXPIRED");
    BY_MESSAGE.put("Checkpoint has been subsumed.", "CHECKPOINT_SUBSUMED");
    BY_MESSAGE.put("Checkpoint was declined.", "CHECKPOINT_DECLINED");
    BY_MESSAGE.put(
        "Checkpoint was declined (tasks not ready)", "CHECKPOINT_DECLINED_TASK_NOT_READY");
    BY_MESSAGE.put("Checkpoint was declined (task is closing)", "CHECKPOINT_DECLINED_TASK_CLOSING");
    BY_MESSAGE.put(
        "Checkpoint was canceled because a barrier from newer checkpoint was received.",
        "CHECKPOINT_DECLINED_SUBSUMED");
    BY_MESSAGE.put(
        "Task received cancellation from one of its inputs",
        "CHECKPOINT_DECLINED_ON_CANCELLATION_BARRIER");
    BY_MESSAGE.put(
        "Checkpoint was declined because one input stream is finished",
        "CHECKPOINT_DECLINED_INPUT_END_OF_STREAM");
    BY_MESSAGE.put("CheckpointCoordinator shutdown.", "CHECKPOINT_COORDINATOR_SHUTDOWN");
    BY_MESSAGE.put("Checkpoint Coordinator is suspending.", "CHECKPOINT_COORDINATOR_SUSPEND");
    BY_MESSAGE.put("FailoverRegion is restarting.", "JOB_FAILOVER_REGION");
    BY_MESSAGE.put("Task has failed.", "TASK_FAILURE");
    BY_MESSAGE.put("Task local checkpoint failure.", "TASK_CHECKPOINT_FAILURE");
    BY_MESSAGE.put(
        "Unknown task for the checkpoint to notify.",
        "UNKNOWN_TASK_CHECKPOINT_NOTIFICATION_FAILURE");
    BY_MESSAGE.put("Failure to finalize checkpoint.", "FINALIZE_CHECKPOINT_FAILURE");
    BY_MESSAGE.put("Trigger checkpoint failure.", "TRIGGER_CHECKPOINT_FAILURE");
  }

  private CheckpointFailureReasons() {}

  /** The reason's name for a failure message, if the message is one of Flink's reasons. */
  public static Optional<String> name(@Nullable String message) {
    if (message == null) {
      return Optional.empty();
    }
    String text = message.strip();
    String exact = BY_MESSAGE.get(text);
    if (exact != null) {
      return Optional.of(exact);
    }
    return BY_MESSAGE.entrySet().stream()
        .filter(entry -> text.startsWith(entry.getKey()))
        .max(Comparator.comparingInt(entry -> entry.getKey().length()))
        .map(Map.Entry::getValue);
  }

  /** The reason's name, or the message itself when Flink does not use it. */
  public static String describe(@Nullable String message) {
    if (message == null || message.isBlank()) {
      return "no reason given";
    }
    return name(message).orElse(EvidenceText.truncate(message));
  }

  /** The message followed by the reason's name in brackets, when it names one. */
  public static String withName(@Nullable String message) {
    if (message == null || message.isBlank()) {
      return "no reason given";
    }
    String text = EvidenceText.truncate(message);
    return name(message).map(reason -> text + " (" + reason + ")").orElse(text);
  }
}
