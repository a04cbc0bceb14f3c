package io.reliabilitylab.spi.fault;

import static org.apiguardian.api.API.Status.STABLE;

import java.util.Locale;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * Where in the run a fault fires, in logical terms that replay exactly: never wall-clock time. Text
 * form (for the command line and run records): {@code now}, {@code after-event:K}, {@code
 * at-checkpoint:N}, {@code around-commit:N:before-swap}, {@code around-commit:N:after-swap}, {@code
 * snapshot-phase:K}.
 */
@API(status = STABLE)
public sealed interface FaultPosition {

  /** The kind of a position, to say which positions a fault supports. */
  enum Kind {
    NOW,
    AFTER_EVENT,
    AT_CHECKPOINT,
    AROUND_COMMIT,
    SNAPSHOT_PHASE;

    /** The kind as positions are written, e.g. {@code after-event}. */
    public String text() {
      return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }
  }

  Kind kind();

  /** The text form, which {@link #parse} reads back. */
  String text();

  /** As soon as injected. */
  record Now() implements FaultPosition {
    @Override
    public Kind kind() {
      return Kind.NOW;
    }

    @Override
    public String text() {
      return "now";
    }
  }

  /** After the job has processed {@code events} change events (counted from the job's start). */
  record AfterEvent(long events) implements FaultPosition {
    public AfterEvent {
      if (events < 0) {
        throw new IllegalArgumentException("after-event needs a count >= 0");
      }
    }

    @Override
    public Kind kind() {
      return Kind.AFTER_EVENT;
    }

    @Override
    public String text() {
      return "after-event:" + events;
    }
  }

  /** When checkpoint {@code checkpoint} (counted from the job's first) is taken. */
  record AtCheckpoint(long checkpoint) implements FaultPosition {
    public AtCheckpoint {
      if (checkpoint < 1) {
        throw new IllegalArgumentException("at-checkpoint needs a checkpoint number >= 1");
      }
    }

    @Override
    public Kind kind() {
      return Kind.AT_CHECKPOINT;
    }

    @Override
    public String text() {
      return "at-checkpoint:" + checkpoint;
    }
  }

  /** Around the sink's commit of checkpoint {@code checkpoint}: before or after the swap. */
  record AroundCommit(long checkpoint, boolean afterSwap) implements FaultPosition {
    public AroundCommit {
      if (checkpoint < 1) {
        throw new IllegalArgumentException("around-commit needs a checkpoint number >= 1");
      }
    }

    @Override
    public Kind kind() {
      return Kind.AROUND_COMMIT;
    }

    @Override
    public String text() {
      return "around-commit:" + checkpoint + (afterSwap ? ":after-swap" : ":before-swap");
    }
  }

  /** During the snapshot phase, after {@code rows} snapshot rows were read. */
  record SnapshotPhase(long rows) implements FaultPosition {
    public SnapshotPhase {
      if (rows < 0) {
        throw new IllegalArgumentException("snapshot-phase needs a row count >= 0");
      }
    }

    @Override
    public Kind kind() {
      return Kind.SNAPSHOT_PHASE;
    }

    @Override
    public String text() {
      return "snapshot-phase:" + rows;
    }
  }

  /** Reads the text form; the message of a bad input lists the accepted forms. */
  static FaultPosition parse(String text) {
    String[] parts = text.trim().split(":");
    @Nullable String reason = null;
    try {
      switch (parts[0]) {
        case "now":
          if (parts.length == 1) {
            return new Now();
          }
          break;
        case "after-event":
          if (parts.length == 2) {
            return new AfterEvent(Long.parseLong(parts[1]));
          }
          break;
        case "at-checkpoint":
          if (parts.length == 2) {
            return new AtCheckpoint(Long.parseLong(parts[1]));
          }
          break;
        case "around-commit":
          if (parts.length == 3
              && ("before-swap".equals(parts[2]) || "after-swap".equals(parts[2]))) {
            return new AroundCommit(Long.parseLong(parts[1]), "after-swap".equals(parts[2]));
          }
          break;
        case "snapshot-phase":
          if (parts.length == 2) {
            return new SnapshotPhase(Long.parseLong(parts[1]));
          }
          break;
        default:
          break;
      }
    } catch (IllegalArgumentException e) {
      // a number that does not parse or is out of range: say so below, with the accepted forms
      reason = e instanceof NumberFormatException ? "not a number" : e.getMessage();
    }
    throw new IllegalArgumentException(
        "Unknown fault position '"
            + text
            + "'"
            + (reason == null ? "" : " (" + reason + ")")
            + "; use now, after-event:K, at-checkpoint:N, around-commit:N:before-swap,"
            + " around-commit:N:after-swap or snapshot-phase:K");
  }
}
