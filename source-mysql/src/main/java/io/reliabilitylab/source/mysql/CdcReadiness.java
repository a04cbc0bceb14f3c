package io.reliabilitylab.source.mysql;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.List;
import java.util.Objects;
import java.util.Set;
import org.apiguardian.api.API;

/**
 * What {@link CdcPrerequisites} found on a source: its binlog settings, the CDC account and its
 * privileges, and the problems, if any (empty when the source can be captured).
 *
 * @param serverVersion e.g. {@code 10.11.5-MariaDB-log}
 * @param cdcAccount the account the CDC user connected as, e.g. {@code lab_cdc@%}
 * @param logBin {@code ON} or {@code OFF}
 * @param binlogFormat e.g. {@code ROW}
 * @param binlogRowImage e.g. {@code FULL}
 * @param serverId the server's {@code server_id}
 * @param privileges the CDC account's privileges that matter to the lab, upper case, e.g. {@code
 *     REPLICATION SLAVE}
 * @param problems one sentence per missing setting or privilege, saying what to do
 */
@API(status = EXPERIMENTAL)
public record CdcReadiness(
    String serverVersion,
    String cdcAccount,
    String logBin,
    String binlogFormat,
    String binlogRowImage,
    long serverId,
    Set<String> privileges,
    List<String> problems) {

  public CdcReadiness {
    Objects.requireNonNull(serverVersion, "serverVersion");
    Objects.requireNonNull(cdcAccount, "cdcAccount");
    privileges = Set.copyOf(privileges);
    problems = List.copyOf(problems);
  }

  /** Whether the source can be captured: no problem was found. */
  public boolean ready() {
    return problems.isEmpty();
  }

  /** One line for logs and run records. */
  public String summary() {
    return serverVersion
        + ": log_bin="
        + logBin
        + ", binlog_format="
        + binlogFormat
        + ", binlog_row_image="
        + binlogRowImage
        + ", server_id="
        + serverId
        + ", CDC account "
        + cdcAccount
        + (ready() ? ", ready" : ", not ready: " + String.join("; ", problems));
  }
}
