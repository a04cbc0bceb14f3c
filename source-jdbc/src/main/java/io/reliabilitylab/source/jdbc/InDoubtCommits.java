package io.reliabilitylab.source.jdbc;

import io.reliabilitylab.spi.data.Row;
import io.reliabilitylab.spi.data.RowKey;
import io.reliabilitylab.workload.SourceChange;
import io.reliabilitylab.workload.SourceTransaction;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * Tells whether a commit whose answer was lost (the server crashed, or the connection broke, while
 * the {@code COMMIT} was on its way) took effect, from what the database holds now: the oracle
 * follows the database, not the writer's intent.
 *
 * <p>Every change of the lab's workload writes a fresh event id, so for each key the commit touched
 * its row before the commit (absent, or the event id of the before image) differs from its row
 * after (absent, or the event id written last). The commit took effect if every such key shows its
 * after state, and did not if every key shows its before state; anything else is reported as an
 * error, since a commit is all or nothing. Nothing else writes the table meanwhile: the writer is
 * the only one, and it has not gone on.
 */
final class InDoubtCommits {

  /** What a key holds before and after a commit: an event id, or null for no row. */
  private record KeyStates(@Nullable Long before, @Nullable Long after) {}

  private final String quotedTable;

  /** For {@code quotedTable} (quoted as the database wants it), keyed by {@code order_id}. */
  InDoubtCommits(String quotedTable) {
    this.quotedTable = Objects.requireNonNull(quotedTable, "quotedTable");
  }

  /**
   * Whether {@code transactions}, written in one commit, took effect; empty when the database
   * cannot tell (each key the commit touched holds the same state before and after it).
   *
   * @throws SQLException when the database shows part of the commit, or cannot be read
   */
  Optional<Boolean> committed(Connection connection, List<SourceTransaction> transactions)
      throws SQLException {
    Map<RowKey, KeyStates> touched = touched(transactions);
    int after = 0;
    int before = 0;
    String sql = "SELECT event_id FROM " + quotedTable + " WHERE order_id = ?";
    try (PreparedStatement select = connection.prepareStatement(sql)) {
      for (Map.Entry<RowKey, KeyStates> key : touched.entrySet()) {
        KeyStates states = key.getValue();
        if (Objects.equals(states.before(), states.after())) {
          continue; // inserted and deleted in the same commit: no trace either way
        }
        Long now = eventIdOf(select, key.getKey());
        if (Objects.equals(now, states.after())) {
          after++;
        } else if (Objects.equals(now, states.before())) {
          before++;
        } else {
          throw new SQLException(
              "Key "
                  + key.getKey()
                  + " holds event "
                  + now
                  + ", neither the "
                  + states.before()
                  + " before nor the "
                  + states.after()
                  + " after the commit whose answer was lost: another writer changed the table");
        }
      }
    }
    if (after > 0 && before > 0) {
      throw new SQLException(
          "The database shows part of a commit whose answer was lost ("
              + after
              + " key(s) after it, "
              + before
              + " before): a commit should be all or nothing");
    }
    return after + before == 0 ? Optional.empty() : Optional.of(after > 0);
  }

  private static @Nullable Long eventIdOf(PreparedStatement select, RowKey key)
      throws SQLException {
    select.setObject(1, key.parts().get(0));
    try (ResultSet rows = select.executeQuery()) {
      return rows.next() ? rows.getLong(1) : null;
    }
  }

  /** Each key the commit touched, with its state before the commit and after it. */
  private static Map<RowKey, KeyStates> touched(List<SourceTransaction> transactions) {
    Map<RowKey, KeyStates> touched = new LinkedHashMap<>();
    for (SourceTransaction transaction : transactions) {
      for (SourceChange change : transaction.changes()) {
        if (change instanceof SourceChange.Insert insert) {
          touch(touched, insert.after().key(), null, insert.after().eventId());
        } else if (change instanceof SourceChange.Update update) {
          Row from = update.before();
          Row to = update.after();
          if (update.changesKey()) {
            touch(touched, from.key(), from.eventId(), null);
            touch(touched, to.key(), null, to.eventId());
          } else {
            touch(touched, from.key(), from.eventId(), to.eventId());
          }
        } else if (change instanceof SourceChange.Delete delete) {
          touch(touched, delete.before().key(), delete.before().eventId(), null);
        }
      }
    }
    return touched;
  }

  /** Keeps a key's first before state and its latest after state. */
  private static void touch(
      Map<RowKey, KeyStates> touched, RowKey key, @Nullable Long before, @Nullable Long after) {
    KeyStates known = touched.get(key);
    touched.put(key, new KeyStates(known == null ? before : known.before(), after));
  }
}
