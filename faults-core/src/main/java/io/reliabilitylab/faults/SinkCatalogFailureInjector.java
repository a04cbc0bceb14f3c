package io.reliabilitylab.faults;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import com.google.auto.service.AutoService;
import io.reliabilitylab.kit.Observation;
import io.reliabilitylab.kit.PipelineView;
import io.reliabilitylab.kit.ProofRule;
import io.reliabilitylab.kit.ProofVerdict;
import io.reliabilitylab.kit.ProvenFault;
import io.reliabilitylab.spi.fault.FaultContext;
import io.reliabilitylab.spi.fault.FaultHandle;
import io.reliabilitylab.spi.fault.FaultInjector;
import io.reliabilitylab.spi.fault.FaultPosition;
import io.reliabilitylab.spi.fault.FaultSpec;
import io.reliabilitylab.spi.fault.FaultVariant;
import io.reliabilitylab.spi.pipeline.JobControl;
import io.reliabilitylab.spi.pipeline.JobFailure;
import io.reliabilitylab.spi.pipeline.PipelineCapability;
import io.reliabilitylab.spi.pipeline.SinkCatalogControl;
import io.reliabilitylab.spi.pipeline.SnapshotInfo;
import io.reliabilitylab.spi.pipeline.TableAccess;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * {@code sink-catalog-failure}: the catalog service the sink commits through fails, on a pipeline
 * whose tables live behind an Iceberg REST catalog the lab runs ({@link SinkCatalogControl}):
 *
 * <ul>
 *   <li>{@code lost-commit-response} (the default): the service applies the next commit to the
 *       current table (or, with {@code table=changelog}, to the changelog) and loses its response
 *       (an HTTP 500), so Iceberg's client throws {@code CommitStateUnknownException} for a commit
 *       that landed; the job fails, and after its restore the checkpoint must not be committed
 *       again. Proof: the service recorded the applied commit and its new metadata file, the fault
 *       id reached the job's exception history through the lost response's message, and the restart
 *       count rose by exactly one.
 *   <li>{@code unreachable}: the service stops listening and closes its connections for {@code
 *       down} ms (default {@value #DEFAULT_DOWN_MS}), then listens again on the same address; the
 *       job's commits and table loads are refused meanwhile. Proof: a request of the lab's own was
 *       refused while it was down and answered after; the job's failures in the window are recorded
 *       as its symptoms.
 * </ul>
 */
@API(status = EXPERIMENTAL)
@AutoService(FaultInjector.class)
public final class SinkCatalogFailureInjector extends BuiltInFault {

  /** The spec parameter choosing the variant. */
  public static final String VARIANT = "variant";

  /** The parameter for how long the service stays unreachable, in milliseconds. */
  public static final String DOWN = "down";

  /**
   * The parameter naming the table whose next commit loses its response: {@code current} (the
   * default) or {@code changelog}.
   */
  public static final String TABLE = "table";

  public static final String LOST_COMMIT_RESPONSE = "lost-commit-response";
  public static final String UNREACHABLE = "unreachable";
  static final long DEFAULT_DOWN_MS = 3_000;

  @Override
  public String name() {
    return "sink-catalog-failure";
  }

  @Override
  public String description() {
    return "The sink's catalog service applies a commit and loses its response"
        + " (CommitStateUnknownException); the checkpoint must be committed exactly once";
  }

  @Override
  public Set<Class<? extends PipelineCapability>> requiredCapabilities() {
    return Set.of(JobControl.class, SinkCatalogControl.class);
  }

  @Override
  public Set<FaultPosition.Kind> supportedPositions() {
    return EnumSet.of(FaultPosition.Kind.NOW);
  }

  @Override
  public List<FaultVariant> variants() {
    return List.of(
        FaultVariant.standard(description()),
        FaultVariant.of(
                UNREACHABLE,
                "The sink's catalog service refuses every connection for a few seconds, then"
                    + " listens again on the same address; the job recovers on its own")
            .with(VARIANT, UNREACHABLE));
  }

  @Override
  Map<String, String> parameters() {
    return Map.of(
        VARIANT,
        LOST_COMMIT_RESPONSE + " (default) or " + UNREACHABLE,
        DOWN,
        "how long the service stays unreachable, in ms (default " + DEFAULT_DOWN_MS + ")",
        TABLE,
        "the table whose next commit loses its response: current (the default) or changelog");
  }

  @Override
  FaultHandle start(FaultContext context, PipelineView view) throws Exception {
    FaultSpec spec = context.spec();
    String variant =
        choice(spec, VARIANT, LOST_COMMIT_RESPONSE, Set.of(LOST_COMMIT_RESPONSE, UNREACHABLE));
    SinkCatalogControl catalog =
        context.pipeline().capability(SinkCatalogControl.class).orElseThrow();
    return UNREACHABLE.equals(variant)
        ? unreachable(context, view, catalog, positiveLong(spec, DOWN, DEFAULT_DOWN_MS))
        : lostCommitResponse(context, view, catalog);
  }

  private FaultHandle lostCommitResponse(
      FaultContext context, PipelineView view, SinkCatalogControl catalog) throws Exception {
    String faultId = context.spec().id();
    boolean changelog =
        choice(context.spec(), TABLE, "current", Set.of("current", "changelog"))
            .equals("changelog");
    TableAccess tables = view.tables().orElse(null);
    String qualified =
        tables == null ? null : changelog ? tables.changelogTable() : tables.currentTable();
    String table =
        qualified == null
            ? (changelog ? "orders_changelog" : "orders_current")
            : unqualified(qualified);
    Map<String, Set<Long>> before = SinkCommitFailureInjector.snapshotIdsByTable(view);
    int lostBefore = catalog.lostCommitResponses().size();
    Observation baseline = view.observe();
    catalog.loseCommitResponses(
        table,
        1,
        "the reliability lab lost this commit's response (fault "
            + faultId
            + "): the commit was applied");
    context.signalArmed();
    AtomicLong target = new AtomicLong(-1);
    ProofRule failover = Proofs.failoverCarrying(faultId, 1);
    ProofRule proof =
        (start, now) -> {
          List<SinkCatalogControl.LostCommitResponse> lost = catalog.lostCommitResponses();
          if (lost.size() <= lostBefore) {
            return ProofVerdict.pending(
                "the catalog has not yet applied a commit to " + table + " and lost its response");
          }
          ProofVerdict verdict = failover.judge(start, now);
          if (!(verdict instanceof ProofVerdict.Proven proven)) {
            return verdict;
          }
          SinkCatalogControl.LostCommitResponse response = lost.get(lostBefore);
          List<String> proofs = new ArrayList<>();
          proofs.add(
              "the catalog applied a commit to "
                  + table
                  + " at "
                  + response.at()
                  + " (new metadata "
                  + response.metadataLocation()
                  + ") and answered it with an error");
          proofs.addAll(proven.proofs());
          Map<String, String> details = new LinkedHashMap<>(proven.details());
          details.put("lost_response_table", response.table());
          details.put("lost_response_at", response.at().toString());
          details.put("lost_response_metadata", response.metadataLocation());
          appliedCommit(view, qualified, before, response)
              .ifPresent(
                  snapshot -> {
                    long checkpoint = Objects.requireNonNull(snapshot.committedCheckpointId());
                    target.set(checkpoint);
                    proofs.add(
                        "snapshot "
                            + snapshot.snapshotId()
                            + " of "
                            + snapshot.table()
                            + " committed checkpoint "
                            + checkpoint
                            + " through the lost response");
                    details.put("target_checkpoint_id", Long.toString(checkpoint));
                    details.put("committed_snapshot_id", Long.toString(snapshot.snapshotId()));
                  });
          return ProofVerdict.proven(response.at(), proofs, details);
        };
    return ProvenFault.builder(context, view, baseline)
        .what(
            "the catalog applies the next commit to "
                + table
                + " and loses its response (HTTP 500: CommitStateUnknownException)")
        .detail(VARIANT, LOST_COMMIT_RESPONSE)
        .detail("catalog", catalog.address())
        .proof(proof)
        .recoveryDetails(
            recovered ->
                target.get() < 0
                    ? Map.of()
                    : SinkCommitFailureInjector.commitsOf(view, before, target.get(), target))
        .build();
  }

  /** The newest snapshot of the table the lost response was for, committed by then. */
  private static Optional<SnapshotInfo> appliedCommit(
      PipelineView view,
      @Nullable String table,
      Map<String, Set<Long>> before,
      SinkCatalogControl.LostCommitResponse response) {
    Optional<TableAccess> tables = view.tables();
    if (tables.isEmpty() || table == null) {
      return Optional.empty();
    }
    try {
      return tables.get().snapshots(table).stream()
          .filter(s -> !before.getOrDefault(table, Set.of()).contains(s.snapshotId()))
          .filter(s -> s.committedCheckpointId() != null)
          .filter(s -> !s.committedAt().isAfter(response.at()))
          .max(Comparator.comparing(SnapshotInfo::committedAt));
    } catch (Exception e) {
      return Optional.empty();
    }
  }

  private FaultHandle unreachable(
      FaultContext context, PipelineView view, SinkCatalogControl catalog, long downMs)
      throws Exception {
    Observation baseline = view.observe();
    Map<String, String> details = new LinkedHashMap<>();
    details.put(VARIANT, UNREACHABLE);
    details.put("catalog", catalog.address());
    details.put(DOWN, downMs + " ms");
    catalog.stopListening();
    Instant stoppedAt = context.clock().instant();
    context.signalArmed();
    boolean answeredWhileDown;
    try {
      answeredWhileDown = catalog.answers();
      Thread.sleep(downMs);
    } finally {
      // also when interrupted: inject must not return with the catalog left down
      catalog.startListening();
    }
    Instant startedAt = context.clock().instant();
    details.put("stopped_at", stoppedAt.toString());
    details.put("started_at", startedAt.toString());
    details.put("down_for", Duration.between(stoppedAt, startedAt).toString());
    return ProvenFault.builder(context, view, baseline)
        .what("the sink's catalog refused every connection for " + downMs + " ms")
        .details(details)
        .proof(
            (before, now) -> {
              if (answeredWhileDown) {
                return ProofVerdict.refuted(
                    "the catalog answered the lab while it was supposed to be unreachable");
              }
              if (!catalog.answers()) {
                return ProofVerdict.pending("the catalog does not answer again yet");
              }
              List<JobFailure> during =
                  now.exceptionHistory().stream()
                      .filter(f -> !before.exceptionHistory().contains(f))
                      .filter(f -> !f.at().isBefore(stoppedAt))
                      .toList();
              List<String> proofs = new ArrayList<>();
              proofs.add(
                  "while the catalog was down a request of the lab's own to "
                      + catalog.address()
                      + " was refused; after "
                      + Duration.between(stoppedAt, startedAt).toMillis()
                      + " ms it answered again");
              Map<String, String> symptoms = new LinkedHashMap<>();
              symptoms.put("job_failures_since_outage", Integer.toString(during.size()));
              if (!during.isEmpty()) {
                JobFailure first = during.get(0);
                proofs.add(
                    "the job failed "
                        + during.size()
                        + " time(s) since, first at "
                        + first.at()
                        + ": "
                        + Proofs.truncate(first.exceptionClass() + ": " + first.message()));
                symptoms.put("first_job_failure", Proofs.truncate(first.message()));
              }
              return ProofVerdict.proven(stoppedAt, proofs, symptoms);
            })
        .build();
  }

  private static String unqualified(String table) {
    int dot = table.lastIndexOf('.');
    return dot < 0 ? table : table.substring(dot + 1);
  }
}
