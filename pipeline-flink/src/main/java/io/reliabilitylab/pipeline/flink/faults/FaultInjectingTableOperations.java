package io.reliabilitylab.pipeline.flink.faults;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.reliabilitylab.spi.fault.FaultPosition;
import java.util.List;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableOperations;
import org.apache.iceberg.encryption.EncryptionManager;
import org.apache.iceberg.exceptions.CommitStateUnknownException;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.LocationProvider;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * Iceberg table operations that delegate every call and, when a sink-commit point fires, fail a
 * commit before the metadata swap (nothing committed; a plain exception, which Iceberg does not
 * retry) or after it (committed, then an exception or {@link CommitStateUnknownException}). Iceberg
 * cleans up a failed commit's files only for its own retryable failures, so neither exception
 * deletes files a swapped commit references.
 */
@API(status = INTERNAL)
public final class FaultInjectingTableOperations implements TableOperations {

  /** The snapshot summary property the Flink sink writes its checkpoint id into. */
  public static final String MAX_COMMITTED_CHECKPOINT_ID = "flink.max-committed-checkpoint-id";

  private final TableOperations delegate;
  private final List<String> points;
  private final String tableName;

  public FaultInjectingTableOperations(
      TableOperations delegate, List<String> points, String tableName) {
    this.delegate = delegate;
    this.points = List.copyOf(points);
    this.tableName = tableName;
  }

  @Override
  public void commit(@Nullable TableMetadata base, TableMetadata metadata) {
    Arming arming = FaultSwitchboard.anyArmed() ? firing(base, metadata) : null;
    if (arming == null) {
      delegate.commit(base, metadata);
      return;
    }
    String where =
        "committing "
            + tableName
            + (checkpointOf(metadata) < 0 ? "" : " for checkpoint " + checkpointOf(metadata));
    if (!afterSwap(arming)) {
      throw arming.exception("before the metadata swap, " + where);
    }
    delegate.commit(base, metadata);
    InjectedFaultException fault = arming.exception("after the metadata swap, " + where);
    if (arming.action() == FaultAction.COMMIT_STATE_UNKNOWN) {
      throw new CommitStateUnknownException(fault.getMessage(), fault);
    }
    throw fault;
  }

  private @Nullable Arming firing(@Nullable TableMetadata base, TableMetadata metadata) {
    Snapshot snapshot = metadata.currentSnapshot();
    Snapshot previous = base == null ? null : base.currentSnapshot();
    boolean newSnapshot =
        snapshot != null && (previous == null || previous.snapshotId() != snapshot.snapshotId());
    if (!newSnapshot) {
      // A schema or property change, not a sink commit.
      return null;
    }
    long checkpoint = checkpointOf(metadata);
    for (String point : points) {
      for (Arming arming : FaultSwitchboard.armed(point)) {
        FaultPosition position = arming.position();
        boolean reached =
            position instanceof FaultPosition.Now
                || position instanceof FaultPosition.AtCheckpoint at
                    && checkpoint >= at.checkpoint()
                || position instanceof FaultPosition.AroundCommit around
                    && checkpoint >= around.checkpoint();
        if (reached && arming.tryFire(checkpoint < 0 ? null : checkpoint)) {
          return arming;
        }
      }
    }
    return null;
  }

  private static boolean afterSwap(Arming arming) {
    return switch (arming.action()) {
      case FAIL_COMMIT_AFTER_SWAP, COMMIT_STATE_UNKNOWN -> true;
      case THROW ->
          arming.position() instanceof FaultPosition.AroundCommit around && around.afterSwap();
      default -> false;
    };
  }

  /** The checkpoint id in the new snapshot's summary, or -1 if it has none. */
  private static long checkpointOf(TableMetadata metadata) {
    Snapshot snapshot = metadata.currentSnapshot();
    String value = snapshot == null ? null : snapshot.summary().get(MAX_COMMITTED_CHECKPOINT_ID);
    if (value == null) {
      return -1;
    }
    try {
      return Long.parseLong(value);
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  @Override
  public TableMetadata current() {
    return delegate.current();
  }

  @Override
  public TableMetadata refresh() {
    return delegate.refresh();
  }

  @Override
  public FileIO io() {
    return delegate.io();
  }

  @Override
  public EncryptionManager encryption() {
    return delegate.encryption();
  }

  @Override
  public String metadataFileLocation(String fileName) {
    return delegate.metadataFileLocation(fileName);
  }

  @Override
  public LocationProvider locationProvider() {
    return delegate.locationProvider();
  }

  @Override
  public TableOperations temp(TableMetadata uncommittedMetadata) {
    return delegate.temp(uncommittedMetadata);
  }

  @Override
  public long newSnapshotId() {
    return delegate.newSnapshotId();
  }

  @Override
  public boolean requireStrictCleanup() {
    return delegate.requireStrictCleanup();
  }
}
