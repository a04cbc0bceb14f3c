package io.reliabilitylab.source.jdbc;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.sql.SQLException;
import java.util.OptionalLong;
import org.apiguardian.api.API;

/**
 * The lab's {@code orders} table in a source database, whatever the engine: reset before a
 * scenario, checked for capture, counted.
 *
 * <pre>{@code
 * SourceTable orders = source.orders();
 * orders.reset();            // drop and create, empty, ready to be captured
 * orders.verifyCapture();    // one line naming whatever the capture lacks
 * }</pre>
 */
@API(status = EXPERIMENTAL)
public interface SourceTable {

  /** The table's name, as the capture and the writer name it. */
  String name();

  /**
   * The name qualified as the engine's capture lists it ({@code db.orders}, {@code public.orders}).
   */
  String qualifiedName();

  /** Drops and re-creates the table, empty, with what its capture needs. */
  void reset() throws SQLException;

  /** Drops the table, and what the lab made for capturing it, if they exist. */
  void drop() throws SQLException;

  /**
   * Verifies that the source can capture this table's changes as the CDC account.
   *
   * @throws CaptureNotReadyException naming each missing setting and what fixes it, in one line
   */
  void verifyCapture();

  /** How many rows the table holds. */
  long rowCount() throws SQLException;

  /** The largest {@code event_id} in the table, empty when the table is. */
  OptionalLong maxEventId() throws SQLException;
}
