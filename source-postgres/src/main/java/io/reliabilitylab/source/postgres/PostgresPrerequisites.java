package io.reliabilitylab.source.postgres;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.reliabilitylab.source.postgres.PostgresReadiness.Publication;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.apiguardian.api.API;

/**
 * Checks, before a capture starts, that a PostgreSQL server can be captured by logical decoding:
 * {@code wal_level=logical}, a free replication slot, WAL senders, a capture role with {@code
 * REPLICATION} (or a superuser) that may read the table, and, when the target names one, a
 * publication that carries the table. It connects as the capture role, as the capture does.
 *
 * <pre>{@code
 * PostgresReadiness readiness =
 *     PostgresPrerequisites.verify(source, CaptureTarget.table("public", "orders"));
 * log.info(readiness.summary());
 * }</pre>
 */
@API(status = EXPERIMENTAL)
public final class PostgresPrerequisites {

  private PostgresPrerequisites() {}

  /**
   * Checks the server and returns what it found; throws {@link PostgresNotReadyException}, with one
   * line naming each problem and the statement that fixes it, when something is missing.
   */
  public static PostgresReadiness verify(PostgresSource source, CaptureTarget target) {
    PostgresReadiness readiness = check(source, target);
    if (!readiness.ready()) {
      throw new PostgresNotReadyException(readiness.problems(), null);
    }
    return readiness;
  }

  /**
   * Checks the server and returns what it found, problems included; throws {@link
   * PostgresNotReadyException} only when the capture role cannot log in.
   */
  public static PostgresReadiness check(PostgresSource source, CaptureTarget target) {
    Objects.requireNonNull(source, "source");
    Objects.requireNonNull(target, "target");
    try (Connection connection = source.connectAsCdcUser()) {
      return inspect(connection, target);
    } catch (SQLException e) {
      throw new PostgresNotReadyException(
          List.of(
              "the capture role '"
                  + source.cdcCredentials().user()
                  + "' cannot log in to "
                  + source.jdbcUrl()
                  + " ("
                  + String.valueOf(e.getMessage()).replace('\n', ' ')
                  + "): check the host, port, database and password, and that pg_hba.conf admits"
                  + " the role"),
          e);
    }
  }

  static PostgresReadiness inspect(Connection connection, CaptureTarget target)
      throws SQLException {
    PostgresReadiness.Server server;
    PostgresReadiness.Role role;
    try (PreparedStatement statement =
            connection.prepareStatement(
                "SELECT current_setting('wal_level'),"
                    + " current_setting('max_replication_slots')::int,"
                    + " (SELECT count(*) FROM pg_replication_slots)::int,"
                    + " current_setting('max_wal_senders')::int,"
                    + " r.rolname, r.rolreplication, r.rolsuper"
                    + " FROM pg_roles r WHERE r.rolname = current_user");
        ResultSet row = statement.executeQuery()) {
      row.next();
      server =
          new PostgresReadiness.Server(
              row.getString(1), row.getInt(2), row.getInt(3), row.getInt(4));
      role = new PostgresReadiness.Role(row.getString(5), row.getBoolean(6), row.getBoolean(7));
    }
    PostgresReadiness.Target found = inspectTarget(connection, target);
    return new PostgresReadiness(server, role, found, problems(server, role, found));
  }

  private static PostgresReadiness.Target inspectTarget(Connection connection, CaptureTarget target)
      throws SQLException {
    boolean exists = false;
    boolean readable = false;
    try (PreparedStatement statement =
        connection.prepareStatement(
            "SELECT has_table_privilege(c.oid, 'SELECT') FROM pg_class c"
                + " JOIN pg_namespace n ON n.oid = c.relnamespace"
                + " WHERE n.nspname = ? AND c.relname = ? AND c.relkind IN ('r', 'p')")) {
      statement.setString(1, target.schema());
      statement.setString(2, target.table());
      try (ResultSet row = statement.executeQuery()) {
        if (row.next()) {
          exists = true;
          readable = row.getBoolean(1);
        }
      }
    }
    Publication publication = Publication.NOT_NAMED;
    if (target.publication() != null) {
      try (PreparedStatement statement =
          connection.prepareStatement(
              "SELECT p.puballtables OR EXISTS (SELECT 1 FROM pg_publication_tables t"
                  + " WHERE t.pubname = p.pubname AND t.schemaname = ? AND t.tablename = ?)"
                  + " FROM pg_publication p WHERE p.pubname = ?")) {
        statement.setString(1, target.schema());
        statement.setString(2, target.table());
        statement.setString(3, target.publication());
        try (ResultSet row = statement.executeQuery()) {
          publication =
              !row.next()
                  ? Publication.MISSING
                  : row.getBoolean(1) ? Publication.CARRIES_TABLE : Publication.LACKS_TABLE;
        }
      }
    }
    return new PostgresReadiness.Target(target, exists, readable, publication);
  }

  /** Each problem the facts show, one line each with the statement that fixes it. */
  static List<String> problems(
      PostgresReadiness.Server server,
      PostgresReadiness.Role role,
      PostgresReadiness.Target target) {
    List<String> problems = new ArrayList<>();
    if (!"logical".equals(server.walLevel())) {
      problems.add(
          "wal_level is '"
              + server.walLevel()
              + "', and logical decoding needs 'logical': run ALTER SYSTEM SET wal_level ="
              + " logical; as a superuser, then restart the server");
    }
    if (server.maxReplicationSlots() == 0) {
      problems.add(
          "max_replication_slots is 0, and the capture needs a slot: run ALTER SYSTEM SET"
              + " max_replication_slots = 10; then restart the server");
    } else if (server.slotsInUse() >= server.maxReplicationSlots()) {
      problems.add(
          "all "
              + server.maxReplicationSlots()
              + " replication slots are taken (max_replication_slots): drop an unused one with"
              + " SELECT pg_drop_replication_slot(slot_name) FROM pg_replication_slots WHERE"
              + " slot_name = '<name>' AND NOT active; or run ALTER SYSTEM SET"
              + " max_replication_slots = "
              + (server.maxReplicationSlots() + 4)
              + "; then restart the server");
    }
    if (server.maxWalSenders() == 0) {
      problems.add(
          "max_wal_senders is 0, and the capture streams through a WAL sender: run ALTER SYSTEM"
              + " SET max_wal_senders = 10; then restart the server");
    }
    String name = Identifiers.quote(role.name());
    if (!role.replication() && !role.superuser()) {
      problems.add(
          "the capture role '"
              + role.name()
              + "' lacks the REPLICATION attribute: run ALTER ROLE "
              + name
              + " WITH REPLICATION;");
    }
    String table = target.target().qualifiedName();
    if (target.tableExists() && !target.tableReadable()) {
      problems.add(
          "the capture role '"
              + role.name()
              + "' may not read "
              + table
              + ": run GRANT SELECT ON "
              + table
              + " TO "
              + name
              + ";");
    }
    String publication =
        target.target().publication() == null
            ? ""
            : Identifiers.quote(target.target().publication());
    switch (target.publication()) {
      case MISSING ->
          problems.add(
              "publication '"
                  + target.target().publication()
                  + "' does not exist: run CREATE PUBLICATION "
                  + publication
                  + " FOR TABLE "
                  + table
                  + "; as the table's owner");
      case LACKS_TABLE ->
          problems.add(
              "publication '"
                  + target.target().publication()
                  + "' does not carry "
                  + table
                  + ": run ALTER PUBLICATION "
                  + publication
                  + " ADD TABLE "
                  + table
                  + "; as the table's owner");
      case NOT_NAMED, CARRIES_TABLE -> {}
    }
    return problems;
  }
}
