package io.reliabilitylab.spi.data;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.List;
import java.util.Objects;
import org.apiguardian.api.API;

/**
 * What one commit changed in a table, as a reader of the table sees it: the rows (or envelopes)
 * that stopped being visible and those that became visible. A row rewritten in place (compaction)
 * is in both lists.
 *
 * @param description the commit, for evidence: {@code snapshot 42 (overwrite, checkpoint 7)}
 * @param removed what the commit's readers no longer see
 * @param added what they see from this commit on
 */
@API(status = EXPERIMENTAL)
public record TableCommit<T>(String description, List<T> removed, List<T> added) {

  public TableCommit {
    Objects.requireNonNull(description, "description");
    removed = List.copyOf(removed);
    added = List.copyOf(added);
  }
}
