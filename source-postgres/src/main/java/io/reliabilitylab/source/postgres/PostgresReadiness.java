package io.reliabilitylab.source.postgres;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.List;
import org.apiguardian.api.API;

/**
 * What a prerequisite check found on a server: its settings, the capture role and the target, and
 * the problems, each one line with the statement that fixes it.
 */
@API(status = EXPERIMENTAL)
public record PostgresReadiness(
    PostgresReadiness.Server server,
    PostgresReadiness.Role role,
    PostgresReadiness.Target target,
    List<String> problems) {

  /** The server's logical-decoding settings and the replication slots in use. */
  public record Server(
      String walLevel, int maxReplicationSlots, int slotsInUse, int maxWalSenders) {}

  /** The role the capture logs in as. */
  public record Role(String name, boolean replication, boolean superuser) {}

  /** How the captured table and its publication look to the capture role. */
  public record Target(
      CaptureTarget target, boolean tableExists, boolean tableReadable, Publication publication) {}

  /** The state of the publication the target names. */
  public enum Publication {
    NOT_NAMED,
    MISSING,
    LACKS_TABLE,
    CARRIES_TABLE
  }

  public PostgresReadiness {
    problems = List.copyOf(problems);
  }

  /** Whether the capture can start. */
  public boolean ready() {
    return problems.isEmpty();
  }

  /** One line: what was checked and found. */
  public String summary() {
    return "wal_level="
        + server.walLevel()
        + ", replication slots "
        + server.slotsInUse()
        + "/"
        + server.maxReplicationSlots()
        + ", max_wal_senders="
        + server.maxWalSenders()
        + ", role "
        + role.name()
        + (role.superuser() ? " (superuser)" : role.replication() ? " (REPLICATION)" : "")
        + ", table "
        + target.target().qualifiedName()
        + (target.tableExists()
            ? (target.tableReadable() ? " readable" : " not readable")
            : " absent")
        + (target.publication() == Publication.NOT_NAMED
            ? ""
            : ", publication " + target.target().publication() + " " + target.publication());
  }
}
