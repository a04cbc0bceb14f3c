package io.reliabilitylab.source.mysql;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.reliabilitylab.spi.secret.Redactor;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;
import org.apiguardian.api.API;

/**
 * Checks, before a capture starts, that a source can be captured: binlog on, {@code
 * binlog_format=ROW}, {@code binlog_row_image=FULL}, a non-zero {@code server_id}, and that the CDC
 * account holds {@code REPLICATION SLAVE}, {@code REPLICATION CLIENT} (MariaDB: {@code BINLOG
 * MONITOR}), {@code RELOAD} and {@code SELECT} on the database. It connects as the CDC account,
 * since that is what the capture does.
 *
 * <pre>{@code
 * CdcReadiness readiness = CdcPrerequisites.verify(source); // throws SourceNotReadyException
 * log.info(readiness.summary());
 * }</pre>
 */
@API(status = EXPERIMENTAL)
public final class CdcPrerequisites {

  static final String REPLICATION_SLAVE = "REPLICATION SLAVE";
  static final String REPLICATION_CLIENT = "REPLICATION CLIENT";
  static final String BINLOG_MONITOR = "BINLOG MONITOR";
  static final String RELOAD = "RELOAD";
  static final String SELECT = "SELECT";

  /** Privileges that only count when granted on {@code *.*}. */
  private static final List<String> GLOBAL_PRIVILEGES =
      List.of(REPLICATION_SLAVE, REPLICATION_CLIENT, BINLOG_MONITOR, RELOAD, "SHOW DATABASES");

  /** MySQL's and MariaDB's ER_DBACCESS_DENIED_ERROR. */
  private static final int ACCESS_DENIED_TO_DATABASE = 1044;

  private static final Pattern PARENTHESES = Pattern.compile("\\([^)]*\\)");

  private CdcPrerequisites() {}

  /**
   * Checks the source and returns what it found; throws {@link SourceNotReadyException}, with one
   * line naming each missing setting or privilege and what to do, when something is missing.
   */
  public static CdcReadiness verify(SourceDatabase source) {
    CdcReadiness readiness = check(source);
    if (!readiness.ready()) {
      throw new SourceNotReadyException(readiness.problems());
    }
    return readiness;
  }

  /**
   * Checks the source and returns what it found, problems included, without throwing for them;
   * throws {@link SourceNotReadyException} only when it cannot connect as the CDC account.
   */
  public static CdcReadiness check(SourceDatabase source) {
    Objects.requireNonNull(source, "source");
    String user = source.cdcCredentials().user();
    try (Connection connection = source.connectAsCdcUser()) {
      return inspect(connection, source.database());
    } catch (SQLException e) {
      if (e.getErrorCode() == ACCESS_DENIED_TO_DATABASE) {
        throw new SourceNotReadyException(
            List.of(
                "the CDC user '"
                    + user
                    + "' may not use database "
                    + source.database()
                    + " (it holds no privilege on it); the lab needs REPLICATION SLAVE,"
                    + " REPLICATION CLIENT (MariaDB: BINLOG MONITOR), RELOAD and SELECT: as an"
                    + " administrator run GRANT REPLICATION SLAVE, REPLICATION CLIENT, RELOAD, SELECT"
                    + " ON *.* TO '"
                    + user
                    + "'@'%'"),
            e);
      }
      throw new SourceNotReadyException(
          List.of(
              "cannot connect to "
                  + source.jdbcUrl()
                  + " as the CDC user '"
                  + user
                  + "' or query it ("
                  + Redactor.redact(String.valueOf(e.getMessage()))
                  + "): check host, port, database, user and password, and that the user may"
                  + " connect from this host"),
          e);
    }
  }

  private static CdcReadiness inspect(Connection connection, String database) throws SQLException {
    String version;
    String account;
    try (Statement statement = connection.createStatement();
        ResultSet row = statement.executeQuery("SELECT VERSION(), CURRENT_USER()")) {
      row.next();
      version = row.getString(1);
      account = row.getString(2);
    }
    Map<String, String> variables = new HashMap<>();
    try (Statement statement = connection.createStatement();
        ResultSet rows =
            statement.executeQuery(
                "SHOW GLOBAL VARIABLES WHERE Variable_name IN"
                    + " ('log_bin', 'binlog_format', 'binlog_row_image', 'server_id')")) {
      while (rows.next()) {
        variables.put(rows.getString(1).toLowerCase(Locale.ROOT), rows.getString(2));
      }
    }
    List<String> grants = new ArrayList<>();
    try (Statement statement = connection.createStatement();
        ResultSet rows = statement.executeQuery("SHOW GRANTS FOR CURRENT_USER()")) {
      while (rows.next()) {
        grants.add(rows.getString(1));
      }
    }
    return evaluate(version, account, variables, grants, database);
  }

  /**
   * Judges what was read from a server; separate from the queries so that it can be unit-tested.
   */
  static CdcReadiness evaluate(
      String version,
      String account,
      Map<String, String> variables,
      List<String> grantLines,
      String database) {
    List<String> problems = new ArrayList<>();
    String logBin = variables.getOrDefault("log_bin", "OFF").toUpperCase(Locale.ROOT);
    String format = variables.getOrDefault("binlog_format", "unknown").toUpperCase(Locale.ROOT);
    String rowImage =
        variables.getOrDefault("binlog_row_image", "unknown").toUpperCase(Locale.ROOT);
    long serverId = parseLong(variables.get("server_id"));
    if (!logBin.equals("ON") && !logBin.equals("1")) {
      problems.add(
          "binary logging is off (log_bin="
              + logBin
              + "); the lab reads changes from the binlog: start the server with log_bin (e.g."
              + " log_bin=mysql-bin and server_id=1 under [mysqld] in my.cnf) and restart it");
    }
    if (!format.equals("ROW")) {
      problems.add(
          "binlog_format is "
              + format
              + "; the lab needs ROW: set binlog_format=ROW in the server config (or SET GLOBAL"
              + " binlog_format=ROW) and restart the capture");
    }
    if (!rowImage.equals("FULL")) {
      problems.add(
          "binlog_row_image is "
              + rowImage
              + "; the lab needs FULL: set binlog_row_image=FULL in the server config (or SET"
              + " GLOBAL binlog_row_image=FULL) and restart the capture");
    }
    if (serverId <= 0) {
      problems.add(
          "server_id is "
              + variables.getOrDefault("server_id", "not set")
              + "; a binlog source needs a non-zero server id: set server_id=1 (any id no replica"
              + " uses) in the server config and restart the server");
    }
    Set<String> privileges = privileges(grantLines, database);
    boolean mariaDb = version.toLowerCase(Locale.ROOT).contains("mariadb");
    List<String> missing = new ArrayList<>();
    if (!privileges.contains(REPLICATION_SLAVE)) {
      missing.add(REPLICATION_SLAVE);
    }
    if (!privileges.contains(REPLICATION_CLIENT) && !privileges.contains(BINLOG_MONITOR)) {
      missing.add(mariaDb ? BINLOG_MONITOR : REPLICATION_CLIENT);
    }
    if (!privileges.contains(RELOAD)) {
      missing.add(RELOAD);
    }
    if (!privileges.contains(SELECT)) {
      missing.add(SELECT);
    }
    if (!missing.isEmpty()) {
      boolean viaRoles = grantLines.stream().anyMatch(line -> !isPrivilegeGrant(line));
      problems.add(
          "the CDC account "
              + account
              + " lacks "
              + String.join(", ", missing)
              + "; the lab needs them to read the binlog and snapshot the tables: as an"
              + " administrator run GRANT "
              + String.join(", ", missing)
              + " ON *.* TO "
              + quotedAccount(account)
              + (viaRoles
                  ? " (privileges granted only through a role are not counted: grant them"
                      + " directly)"
                  : ""));
    }
    return new CdcReadiness(
        version, account, logBin, format, rowImage, serverId, privileges, problems);
  }

  /**
   * The privileges that matter to the lab in {@code SHOW GRANTS} lines: global ones only from
   * {@code *.*}; {@code SELECT} also from the database or one of its tables. {@code ALL PRIVILEGES}
   * on {@code *.*} holds every one.
   */
  static Set<String> privileges(List<String> grantLines, String database) {
    Set<String> privileges = new LinkedHashSet<>();
    for (String line : grantLines) {
      if (!isPrivilegeGrant(line)) {
        continue;
      }
      String upper = line.toUpperCase(Locale.ROOT);
      int on = upper.indexOf(" ON ");
      int to = upper.indexOf(" TO ", on);
      String names = PARENTHESES.matcher(line.substring("GRANT ".length(), on)).replaceAll("");
      String object = line.substring(on + 4, to < 0 ? line.length() : to).trim();
      boolean global = object.equals("*.*");
      boolean onDatabase = global || isInDatabase(object, database);
      for (String raw : names.split(",")) {
        String name = raw.trim().replaceAll("\\s+", " ").toUpperCase(Locale.ROOT);
        if (name.equals("ALL") || name.equals("ALL PRIVILEGES")) {
          if (global) {
            privileges.addAll(GLOBAL_PRIVILEGES);
          }
          if (onDatabase) {
            privileges.add(SELECT);
          }
        } else if (GLOBAL_PRIVILEGES.contains(name)) {
          if (global) {
            privileges.add(name);
          }
        } else if (name.equals(SELECT)) {
          if (onDatabase) {
            privileges.add(SELECT);
          }
        }
      }
    }
    return privileges;
  }

  /** A {@code GRANT privileges ON object TO account} line, not a role or proxy grant. */
  private static boolean isPrivilegeGrant(String line) {
    String upper = line.toUpperCase(Locale.ROOT);
    int on = upper.indexOf(" ON ");
    int to = upper.indexOf(" TO ");
    return upper.startsWith("GRANT ")
        && on > 0
        && (to < 0 || on < to)
        && !upper.startsWith("GRANT PROXY ");
  }

  /** {@code `lab`.*} or {@code `lab`.`orders`}, the database name possibly a LIKE pattern. */
  private static boolean isInDatabase(String object, String database) {
    String unquoted = object.replaceFirst("^(?i)(TABLE|PROCEDURE|FUNCTION|PACKAGE)\\s+", "");
    if (!unquoted.equals(object)) {
      return false;
    }
    String databasePart;
    if (unquoted.startsWith("`")) {
      int close = unquoted.indexOf('`', 1);
      databasePart = close < 0 ? unquoted : unquoted.substring(1, close);
    } else {
      int dot = unquoted.indexOf('.');
      databasePart = dot < 0 ? unquoted : unquoted.substring(0, dot);
    }
    return likeMatches(databasePart, database);
  }

  /** MySQL's LIKE semantics for database names in grants: {@code %}, {@code _}, {@code \_}. */
  private static boolean likeMatches(String pattern, String name) {
    StringBuilder regex = new StringBuilder();
    for (int i = 0; i < pattern.length(); i++) {
      char c = pattern.charAt(i);
      if (c == '\\' && i + 1 < pattern.length()) {
        regex.append(Pattern.quote(String.valueOf(pattern.charAt(++i))));
      } else if (c == '%') {
        regex.append(".*");
      } else if (c == '_') {
        regex.append('.');
      } else {
        regex.append(Pattern.quote(String.valueOf(c)));
      }
    }
    return Pattern.compile(regex.toString(), Pattern.CASE_INSENSITIVE).matcher(name).matches();
  }

  /** {@code lab_cdc@%} as {@code 'lab_cdc'@'%'}, ready to paste into a GRANT. */
  static String quotedAccount(String account) {
    int at = account.lastIndexOf('@');
    if (at < 0) {
      return "'" + account + "'";
    }
    return "'" + account.substring(0, at) + "'@'" + account.substring(at + 1) + "'";
  }

  private static long parseLong(@org.jspecify.annotations.Nullable String value) {
    if (value == null) {
      return 0;
    }
    try {
      return Long.parseLong(value.trim());
    } catch (NumberFormatException e) {
      return 0;
    }
  }
}
