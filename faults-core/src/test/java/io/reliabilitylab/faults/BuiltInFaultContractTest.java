package io.reliabilitylab.faults;

import io.reliabilitylab.spi.fault.FaultInjector;
import io.reliabilitylab.spi.fault.FaultPosition;
import io.reliabilitylab.spi.fault.FaultSpec;
import java.util.Map;
import org.junit.jupiter.api.Nested;

/** Every built-in fault, and each of its variants, keeps the testkit's contract. */
class BuiltInFaultContractTest {

  @Nested
  class TaskFailure extends LiveContract {
    @Override
    protected FaultInjector createInjector() {
      return new TaskFailureInjector();
    }
  }

  @Nested
  class TaskFailureWithReplacementBefore extends LiveContract {
    @Override
    protected FaultInjector createInjector() {
      return new TaskFailureInjector();
    }

    @Override
    protected FaultSpec spec(FaultInjector injector) {
      return withParameters(super.spec(injector), Map.of("replacement", "before"));
    }
  }

  @Nested
  class TaskException extends LiveContract {
    @Override
    protected FaultInjector createInjector() {
      return new TaskExceptionInjector();
    }
  }

  @Nested
  class TaskExceptionInTheSnapshotPhase extends LiveContract {
    @Override
    protected FaultInjector createInjector() {
      return new TaskExceptionInjector();
    }

    @Override
    protected FaultSpec spec(FaultInjector injector) {
      return at(super.spec(injector), new FaultPosition.SnapshotPhase(20));
    }
  }

  @Nested
  class TaskExceptionAtACheckpoint extends LiveContract {
    @Override
    protected FaultInjector createInjector() {
      return new TaskExceptionInjector();
    }

    @Override
    protected FaultSpec spec(FaultInjector injector) {
      return at(super.spec(injector), new FaultPosition.AtCheckpoint(2));
    }
  }

  @Nested
  class CoordinatorFailure extends LiveContract {
    @Override
    protected FaultInjector createInjector() {
      return new CoordinatorFailureInjector();
    }
  }

  @Nested
  class CheckpointFailureToleratedAsync extends LiveContract {
    @Override
    protected FaultInjector createInjector() {
      return new CheckpointFailureInjector();
    }
  }

  @Nested
  class CheckpointFailureExpired extends LiveContract {
    @Override
    protected FaultInjector createInjector() {
      return new CheckpointFailureInjector();
    }

    @Override
    protected FaultSpec spec(FaultInjector injector) {
      return withParameters(super.spec(injector), Map.of("variant", "expired"));
    }
  }

  @Nested
  class CheckpointFailureRestartSync extends LiveContract {
    @Override
    protected FaultInjector createInjector() {
      return new CheckpointFailureInjector();
    }

    @Override
    protected FaultSpec spec(FaultInjector injector) {
      return withParameters(super.spec(injector), Map.of("variant", "restart-sync"));
    }
  }

  @Nested
  class SavepointRestore extends LiveContract {
    @Override
    protected FaultInjector createInjector() {
      return new SavepointRestoreInjector();
    }
  }

  @Nested
  class SinkCommitFailureBeforeSwap extends LiveContract {
    @Override
    protected FaultInjector createInjector() {
      return new SinkCommitFailureInjector();
    }

    @Override
    protected FaultSpec spec(FaultInjector injector) {
      return at(super.spec(injector), new FaultPosition.AroundCommit(2, false));
    }
  }

  @Nested
  class SinkCommitFailureAfterSwap extends LiveContract {
    @Override
    protected FaultInjector createInjector() {
      return new SinkCommitFailureInjector();
    }

    @Override
    protected FaultSpec spec(FaultInjector injector) {
      return at(super.spec(injector), new FaultPosition.AroundCommit(2, true));
    }
  }

  // each named variant, as the lab runs it

  @Nested
  class TaskExceptionDefaultVariant extends VariantContract {
    @Override
    protected FaultInjector createInjector() {
      return new TaskExceptionInjector();
    }

    @Override
    String variant() {
      return "default";
    }
  }

  @Nested
  class TaskExceptionSnapshotPhaseVariant extends VariantContract {
    @Override
    protected FaultInjector createInjector() {
      return new TaskExceptionInjector();
    }

    @Override
    String variant() {
      return "snapshot-phase";
    }
  }

  @Nested
  class TaskFailureDefaultVariant extends VariantContract {
    @Override
    protected FaultInjector createInjector() {
      return new TaskFailureInjector();
    }

    @Override
    String variant() {
      return "default";
    }
  }

  @Nested
  class TaskFailureSnapshotPhaseVariant extends VariantContract {
    @Override
    protected FaultInjector createInjector() {
      return new TaskFailureInjector();
    }

    @Override
    String variant() {
      return "snapshot-phase";
    }
  }

  @Nested
  class CoordinatorFailureDefaultVariant extends VariantContract {
    @Override
    protected FaultInjector createInjector() {
      return new CoordinatorFailureInjector();
    }

    @Override
    String variant() {
      return "default";
    }
  }

  @Nested
  class CoordinatorFailureClusterDiesVariant extends VariantContract {
    @Override
    protected FaultInjector createInjector() {
      return new CoordinatorFailureInjector();
    }

    @Override
    String variant() {
      return "cluster-dies";
    }
  }

  @Nested
  class SavepointRestoreOlderSavepointVariant extends VariantContract {
    @Override
    protected FaultInjector createInjector() {
      return new SavepointRestoreInjector();
    }

    @Override
    String variant() {
      return "older-savepoint";
    }
  }

  @Nested
  class CheckpointFailureDefaultVariant extends VariantContract {
    @Override
    protected FaultInjector createInjector() {
      return new CheckpointFailureInjector();
    }

    @Override
    String variant() {
      return "default";
    }
  }

  @Nested
  class CheckpointFailureExpiredVariant extends VariantContract {
    @Override
    protected FaultInjector createInjector() {
      return new CheckpointFailureInjector();
    }

    @Override
    String variant() {
      return "expired";
    }
  }

  @Nested
  class CheckpointFailureRestartSyncVariant extends VariantContract {
    @Override
    protected FaultInjector createInjector() {
      return new CheckpointFailureInjector();
    }

    @Override
    String variant() {
      return "restart-sync";
    }
  }

  @Nested
  class SavepointRestoreDefaultVariant extends VariantContract {
    @Override
    protected FaultInjector createInjector() {
      return new SavepointRestoreInjector();
    }

    @Override
    String variant() {
      return "default";
    }
  }

  @Nested
  class SavepointRestoreFromAnOlderSavepoint extends LiveContract {
    @Override
    protected FaultInjector createInjector() {
      return new SavepointRestoreInjector();
    }

    @Override
    protected FaultSpec spec(FaultInjector injector) {
      return withParameters(super.spec(injector), Map.of("from", "older-savepoint"));
    }
  }

  @Nested
  class SinkCommitFailureDefaultVariant extends VariantContract {
    @Override
    protected FaultInjector createInjector() {
      return new SinkCommitFailureInjector();
    }

    @Override
    String variant() {
      return "default";
    }
  }

  @Nested
  class SinkCommitFailureAfterSwapVariant extends VariantContract {
    @Override
    protected FaultInjector createInjector() {
      return new SinkCommitFailureInjector();
    }

    @Override
    String variant() {
      return "fail-after-swap";
    }
  }

  @Nested
  class SinkCommitFailureCommitStateUnknownVariant extends VariantContract {
    @Override
    protected FaultInjector createInjector() {
      return new SinkCommitFailureInjector();
    }

    @Override
    String variant() {
      return "commit-state-unknown";
    }
  }

  @Nested
  class SinkCommitFailureSeveralPendingVariant extends VariantContract {
    @Override
    protected FaultInjector createInjector() {
      return new SinkCommitFailureInjector();
    }

    @Override
    String variant() {
      return "several-pending";
    }
  }

  static FaultSpec withParameters(FaultSpec spec, Map<String, String> parameters) {
    return new FaultSpec(spec.id(), spec.fault(), spec.position(), parameters);
  }

  static FaultSpec at(FaultSpec spec, FaultPosition position) {
    return new FaultSpec(spec.id(), spec.fault(), position, spec.parameters());
  }
}
