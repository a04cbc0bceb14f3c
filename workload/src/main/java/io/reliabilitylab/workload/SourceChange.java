package io.reliabilitylab.workload;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.reliabilitylab.spi.data.Row;
import io.reliabilitylab.spi.data.RowKey;
import java.util.Objects;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * One row change a source transaction makes: an insert, an update (which may change the primary
 * key) or a delete, with full row images as {@code binlog_row_image=FULL} gives them.
 */
@API(status = EXPERIMENTAL)
public sealed interface SourceChange {

  /** The key this change acts on: the inserted key, the updated row's old key, the deleted key. */
  RowKey key();

  /** The event id this change writes, or {@code null} for a delete, which writes none. */
  @Nullable Long writtenEventId();

  /** An insert of {@code after}. */
  static Insert insert(Row after) {
    return new Insert(after);
  }

  /** An update from {@code before} to {@code after}; their keys may differ. */
  static Update update(Row before, Row after) {
    return new Update(before, after);
  }

  /** A delete of {@code before}. */
  static Delete delete(Row before) {
    return new Delete(before);
  }

  /** An insert of a new row. */
  @API(status = EXPERIMENTAL)
  record Insert(Row after) implements SourceChange {
    public Insert {
      Objects.requireNonNull(after, "after");
    }

    @Override
    public RowKey key() {
      return after.key();
    }

    @Override
    public @Nullable Long writtenEventId() {
      return after.eventId();
    }

    @Override
    public String toString() {
      return "insert " + after.key() + " " + after.toCanonicalMap();
    }
  }

  /**
   * An update of one row. When {@code after} carries another primary key, it is a primary-key
   * update, which a CDC source reports as a delete of the old key and a create of the new one.
   */
  @API(status = EXPERIMENTAL)
  record Update(Row before, Row after) implements SourceChange {
    public Update {
      Objects.requireNonNull(before, "before");
      Objects.requireNonNull(after, "after");
    }

    /** True when the update moves the row to another primary key. */
    public boolean changesKey() {
      return !before.key().equals(after.key());
    }

    @Override
    public RowKey key() {
      return before.key();
    }

    @Override
    public @Nullable Long writtenEventId() {
      return after.eventId();
    }

    @Override
    public String toString() {
      String head =
          changesKey()
              ? "update key " + before.key() + " -> " + after.key()
              : "update " + before.key();
      return head
          + " (event "
          + before.eventId()
          + " -> "
          + after.eventId()
          + ", changed "
          + before.differingColumns(after)
          + ") "
          + after.toCanonicalMap();
    }
  }

  /** A delete of one row. */
  @API(status = EXPERIMENTAL)
  record Delete(Row before) implements SourceChange {
    public Delete {
      Objects.requireNonNull(before, "before");
    }

    @Override
    public RowKey key() {
      return before.key();
    }

    @Override
    public @Nullable Long writtenEventId() {
      return null;
    }

    @Override
    public String toString() {
      return "delete " + before.key() + " (event " + before.eventId() + ")";
    }
  }
}
