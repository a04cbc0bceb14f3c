package io.reliabilitylab.source.jdbc;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.Objects;
import org.apiguardian.api.API;

/**
 * One start of a logical replication stream, as the server logged it.
 *
 * @param slot the replication slot streamed from
 * @param at when, as the server's log wrote it
 * @param requested the position the client asked to start at; empty when the server did not log it
 * @param startedAfter the slot's confirmed position, after which the server streams committed
 *     transactions; where it is past the requested one, the server moved the start forward to it
 * @param skipped whether the server started later than requested: it never sent the client what was
 *     committed between the two positions
 */
@API(status = EXPERIMENTAL)
public record ReplicationStart(
    String slot, String at, String requested, String startedAfter, boolean skipped) {

  public ReplicationStart {
    Objects.requireNonNull(slot, "slot");
    Objects.requireNonNull(at, "at");
    Objects.requireNonNull(requested, "requested");
    Objects.requireNonNull(startedAfter, "startedAfter");
  }
}
