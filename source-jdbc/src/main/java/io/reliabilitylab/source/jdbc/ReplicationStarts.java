package io.reliabilitylab.source.jdbc;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.io.IOException;
import java.util.List;
import org.apiguardian.api.API;

/**
 * A source server whose log the lab reads (its embedded PostgreSQL): where each logical replication
 * stream of a slot started, and whether the server started it later than the client asked, which it
 * does when the slot was confirmed past that position.
 */
@API(status = EXPERIMENTAL)
public interface ReplicationStarts {

  /** Every start of a stream from {@code slot} the server logged, oldest first. */
  List<ReplicationStart> replicationStarts(String slot) throws IOException;
}
