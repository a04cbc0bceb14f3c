package io.reliabilitylab.faults;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import com.google.auto.service.AutoService;
import io.reliabilitylab.kit.PipelineView;
import io.reliabilitylab.kit.ProofRule;
import io.reliabilitylab.kit.ProofVerdict;
import io.reliabilitylab.spi.fault.FaultContext;
import io.reliabilitylab.spi.fault.FaultHandle;
import io.reliabilitylab.spi.fault.FaultInjector;
import io.reliabilitylab.spi.fault.FaultPosition;
import io.reliabilitylab.spi.fault.FaultSpec;
import io.reliabilitylab.spi.fault.FaultVariant;
import io.reliabilitylab.spi.pipeline.FaultPoints;
import io.reliabilitylab.spi.pipeline.JobControl;
import io.reliabilitylab.spi.pipeline.PipelineCapability;
import io.reliabilitylab.spi.pipeline.SnapshotInfo;
import io.reliabilitylab.spi.pipeline.TableAccess;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import org.apiguardian.api.API;

/**
 * {@code sink-commit-failure}: the sink's commit of checkpoint N fails after the checkpoint
 * completed, in one of four variants chosen by the spec parameter {@code variant} (by default the
 * side an {@code around-commit} position names); {@code at-checkpoint:N} places any variant around
 * the commit of N:
 *
 * <ul>
 *   <li>{@code fail-before-swap}: the commit of N fails non-retryably, nothing is committed; after
 *       the restore N must be committed exactly once;
 *   <li>{@code fail-after-swap}: the commit of N succeeds, then the job dies before checkpoint N+1;
 *       N must not be committed again;
 *   <li>{@code commit-state-unknown}: as {@code fail-after-swap}, but the commit throws Iceberg's
 *       {@code CommitStateUnknownException};
 *   <li>{@code several-pending}: the job dies between the separate commits made for several pending
 *       checkpoints; see {@link SeveralPendingCommits}.
 * </ul>
 *
 * <p>The point fires at the first commit of a checkpoint >= N after arming (the "target"
 * checkpoint). Proof: the fault id in the exception history and the restart count up by exactly
 * one; for {@code fail-after-swap}, when the pipeline shows its tables, also a new snapshot that
 * committed the target before the failure. The recovery record counts, per sink table, the
 * snapshots that commit the target (exactly once means 1) and lists any checkpoint committed more
 * than once.
 */
@API(status = EXPERIMENTAL)
@AutoService(FaultInjector.class)
public final class SinkCommitFailureInjector extends BuiltInFault {

  /** The spec parameter choosing the variant. */
  public static final String VARIANT = "variant";

  public static final String FAIL_BEFORE_SWAP = "fail-before-swap";
  public static final String FAIL_AFTER_SWAP = "fail-after-swap";
  public static final String COMMIT_STATE_UNKNOWN_VARIANT = "commit-state-unknown";
  public static final String SEVERAL_PENDING = "several-pending";

  @Override
  public String name() {
    return "sink-commit-failure";
  }

  @Override
  public String description() {
    return "The sink's commit of checkpoint N fails before or right after the metadata swap; N"
        + " must end up committed exactly once";
  }

  @Override
  public Set<Class<? extends PipelineCapability>> requiredCapabilities() {
    return Set.of(JobControl.class, FaultPoints.class);
  }

  @Override
  public Set<FaultPosition.Kind> supportedPositions() {
    return EnumSet.of(FaultPosition.Kind.AT_CHECKPOINT, FaultPosition.Kind.AROUND_COMMIT);
  }

  /**
   * {@code default} ({@value #FAIL_BEFORE_SWAP}), {@value #FAIL_AFTER_SWAP}, {@value
   * #COMMIT_STATE_UNKNOWN_VARIANT} and {@value #SEVERAL_PENDING}, each around the commit of a
   * checkpoint the lab picks ahead of the running job.
   */
  @Override
  public List<FaultVariant> variants() {
    return List.of(
        FaultVariant.standard(
            "Checkpoint N completes, then its commit fails before the metadata swap (nothing"
                + " committed, not retried); after the restore N is committed exactly once"),
        FaultVariant.of(
                FAIL_AFTER_SWAP,
                "The commit of checkpoint N swaps the metadata, then the job dies before checkpoint"
                    + " N+1; N must not be committed again")
            .with(VARIANT, FAIL_AFTER_SWAP),
        FaultVariant.of(
                COMMIT_STATE_UNKNOWN_VARIANT,
                "The commit of checkpoint N swaps the metadata, then throws Iceberg's"
                    + " CommitStateUnknownException; N must not be committed again")
            .with(VARIANT, COMMIT_STATE_UNKNOWN_VARIANT),
        FaultVariant.of(
                SEVERAL_PENDING,
                "Checkpoint N expires after the committer took it, so checkpoints N and N+1 are"
                    + " committed in separate commits of one round; the job dies between them and"
                    + " each ends up committed exactly once. The regression scenario of"
                    + " apache/iceberg#11008 (merged pending checkpoints lose an equality delete;"
                    + " fixed in the pinned Iceberg 1.10.0): it must pass, and its record counts"
                    + " the keys changed in both checkpoints, which a merged commit would break")
            .with(VARIANT, SEVERAL_PENDING));
  }

  @Override
  Map<String, String> parameters() {
    return Map.of(
        VARIANT,
        "fail-before-swap, fail-after-swap, commit-state-unknown or several-pending (default: the"
            + " side an around-commit position names, else fail-before-swap)");
  }

  @Override
  FaultHandle start(FaultContext context, PipelineView view) throws Exception {
    FaultSpec spec = context.spec();
    FaultPosition position = spec.position();
    long checkpoint =
        position instanceof FaultPosition.AroundCommit around
            ? around.checkpoint()
            : ((FaultPosition.AtCheckpoint) position).checkpoint();
    String variant =
        choice(
            spec,
            VARIANT,
            position instanceof FaultPosition.AroundCommit around && around.afterSwap()
                ? FAIL_AFTER_SWAP
                : FAIL_BEFORE_SWAP,
            Set.of(
                FAIL_BEFORE_SWAP, FAIL_AFTER_SWAP, COMMIT_STATE_UNKNOWN_VARIANT, SEVERAL_PENDING));
    boolean afterSwap =
        FAIL_AFTER_SWAP.equals(variant) || COMMIT_STATE_UNKNOWN_VARIANT.equals(variant);
    if (position instanceof FaultPosition.AroundCommit around && afterSwap != around.afterSwap()) {
      throw new IllegalArgumentException(
          "Variant "
              + variant
              + " of fault "
              + spec.id()
              + " needs position around-commit:"
              + around.checkpoint()
              + (afterSwap ? ":after-swap" : ":before-swap")
              + " or at-checkpoint:"
              + around.checkpoint()
              + ", got "
              + around.text());
    }
    if (SEVERAL_PENDING.equals(variant)) {
      return SeveralPendingCommits.start(context, view, checkpoint);
    }
    FaultPosition.AroundCommit commit = new FaultPosition.AroundCommit(checkpoint, afterSwap);
    Optional<FaultHandle> skipped = skipIfPointMissing(context, view, SINK_COMMIT);
    if (skipped.isPresent()) {
      return skipped.get();
    }
    // the point fires at the first commit of a checkpoint >= N, in whichever sink table commits
    // first: which checkpoint that was is learnt from the tables
    Map<String, Set<Long>> before = snapshotIdsByTable(view);
    AtomicLong target = new AtomicLong(-1);
    ProofRule failover = Proofs.failoverCarrying(spec.id(), 1);
    ProofRule proof =
        !afterSwap
            ? failover
            : (baseline, now) -> {
              ProofVerdict verdict = failover.judge(baseline, now);
              if (!(verdict instanceof ProofVerdict.Proven proven) || view.tables().isEmpty()) {
                return verdict;
              }
              Instant failedAt = Proofs.newFailuresCarrying(spec.id(), baseline, now).get(0).at();
              Optional<SnapshotInfo> committed = firstNewCommit(view, before, checkpoint, failedAt);
              if (committed.isEmpty()) {
                return ProofVerdict.pending(
                    "the job failed with the fault id at "
                        + failedAt
                        + ", but no sink table shows a snapshot committed before that for a"
                        + " checkpoint >= "
                        + checkpoint);
              }
              SnapshotInfo snapshot = committed.get();
              long committedCheckpoint = Objects.requireNonNull(snapshot.committedCheckpointId());
              target.set(committedCheckpoint);
              List<String> proofs = new ArrayList<>(proven.proofs());
              proofs.add(
                  "snapshot "
                      + snapshot.snapshotId()
                      + " of "
                      + snapshot.table()
                      + " committed checkpoint "
                      + committedCheckpoint
                      + " at "
                      + snapshot.committedAt()
                      + ", before the failure");
              Map<String, String> details = new LinkedHashMap<>(proven.details());
              details.put("committed_snapshot_id", Long.toString(snapshot.snapshotId()));
              details.put("committed_snapshot_table", snapshot.table());
              details.put("target_checkpoint_id", Long.toString(committedCheckpoint));
              return ProofVerdict.proven(proven.firedAt(), proofs, details);
            };
    String action =
        COMMIT_STATE_UNKNOWN_VARIANT.equals(variant)
            ? COMMIT_STATE_UNKNOWN
            : afterSwap ? FAIL_COMMIT_AFTER_SWAP : FAIL_COMMIT_BEFORE_SWAP;
    return armPoint(context, view, SINK_COMMIT, action, commit)
        .what(
            COMMIT_STATE_UNKNOWN_VARIANT.equals(variant)
                ? "the commit of checkpoint "
                    + checkpoint
                    + " succeeds, then throws CommitStateUnknownException"
                : afterSwap
                    ? "the commit of checkpoint " + checkpoint + " succeeds, then the job fails"
                    : "the commit of checkpoint " + checkpoint + " fails before the metadata swap")
        .detail(VARIANT, variant)
        .detail("checkpoint_id", Long.toString(checkpoint))
        .proof(proof)
        .recoveryDetails(recovered -> commitsOf(view, before, checkpoint, target))
        .build();
  }

  /** The ids of each sink table's snapshots now; empty without table access. */
  static Map<String, Set<Long>> snapshotIdsByTable(PipelineView view) throws Exception {
    Map<String, Set<Long>> ids = new LinkedHashMap<>();
    Optional<TableAccess> tables = view.tables();
    if (tables.isPresent()) {
      for (String table : List.of(tables.get().currentTable(), tables.get().changelogTable())) {
        Set<Long> known = new HashSet<>();
        tables.get().snapshots(table).forEach(s -> known.add(s.snapshotId()));
        ids.put(table, known);
      }
    }
    return ids;
  }

  /**
   * The earliest snapshot, in any sink table, that was not there before the fault was armed,
   * commits a checkpoint >= N and was committed no later than {@code notAfter}.
   */
  private static Optional<SnapshotInfo> firstNewCommit(
      PipelineView view, Map<String, Set<Long>> before, long checkpoint, Instant notAfter)
      throws Exception {
    Optional<TableAccess> tables = view.tables();
    if (tables.isEmpty()) {
      return Optional.empty();
    }
    List<SnapshotInfo> candidates = new ArrayList<>();
    for (String table : List.of(tables.get().currentTable(), tables.get().changelogTable())) {
      Set<Long> known = before.getOrDefault(table, Set.of());
      for (SnapshotInfo snapshot : tables.get().snapshots(table)) {
        Long committed = snapshot.committedCheckpointId();
        if (!known.contains(snapshot.snapshotId())
            && committed != null
            && committed >= checkpoint
            && !snapshot.committedAt().isAfter(notAfter)) {
          candidates.add(snapshot);
        }
      }
    }
    return candidates.stream().min(Comparator.comparing(SnapshotInfo::committedAt));
  }

  /**
   * How often each sink table committed the checkpoint the fault hit (exactly once means one), and
   * any checkpoint committed more than once: what the variants promise, for the record.
   */
  static Map<String, String> commitsOf(
      PipelineView view, Map<String, Set<Long>> before, long checkpoint, AtomicLong target)
      throws Exception {
    Map<String, String> details = new LinkedHashMap<>();
    Optional<TableAccess> tables = view.tables();
    if (tables.isEmpty()) {
      return details;
    }
    if (target.get() < 0) {
      // fail-before-swap: the hit checkpoint is the first one committed after arming
      firstNewCommit(view, before, checkpoint, Instant.MAX)
          .ifPresent(s -> target.set(Objects.requireNonNull(s.committedCheckpointId())));
    }
    if (target.get() >= 0) {
      details.put("target_checkpoint_id", Long.toString(target.get()));
    }
    for (String table : List.of(tables.get().currentTable(), tables.get().changelogTable())) {
      Map<Long, Long> commits = new TreeMap<>();
      for (SnapshotInfo snapshot : tables.get().snapshots(table)) {
        if (snapshot.committedCheckpointId() != null) {
          commits.merge(snapshot.committedCheckpointId(), 1L, Long::sum);
        }
      }
      if (target.get() >= 0) {
        details.put(
            "target_checkpoint_commits_" + table,
            Long.toString(commits.getOrDefault(target.get(), 0L)));
      }
      String twice =
          commits.entrySet().stream()
              .filter(e -> e.getValue() > 1)
              .map(e -> e.getKey() + " x" + e.getValue())
              .collect(Collectors.joining(", "));
      details.put(
          "checkpoints_committed_more_than_once_" + table, twice.isEmpty() ? "none" : twice);
    }
    return details;
  }
}
