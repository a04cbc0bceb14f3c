package io.reliabilitylab.harness.explore;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.reliabilitylab.runner.PlannedFault;
import io.reliabilitylab.runner.WorkloadPhases;
import io.reliabilitylab.spi.data.RowKey;
import io.reliabilitylab.spi.fault.FaultInjector;
import io.reliabilitylab.spi.fault.FaultPosition;
import io.reliabilitylab.spi.fault.FaultVariant;
import io.reliabilitylab.spi.pipeline.PipelineCapability;
import io.reliabilitylab.spi.pipeline.SourceEndpointAccess;
import io.reliabilitylab.spi.pipeline.SourceProcessControl;
import io.reliabilitylab.workload.SourceChange;
import io.reliabilitylab.workload.SourceTransaction;
import io.reliabilitylab.workload.Workload;
import io.reliabilitylab.workload.Workloads;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import org.apiguardian.api.API;

/**
 * What an explorer draws from: every variant of every discovered fault the pipeline can take,
 * except those expected to diverge (a known hazard fails by design), each at the kinds of position
 * it supports. A case is a random workload and one to three such faults; the first may fire in the
 * snapshot phase.
 *
 * <p>Positions are logical and count from the fault's injection, never wall-clock time: a
 * checkpoint 1 or 2 after it, after event k of the writes that follow it, after row k of the
 * snapshot. Event and row counts are drawn freely and placed within the writes that can reach them
 * when the case is planned ({@link #plannedFaults}), so any case, and any case it shrinks to, can
 * fire all its faults.
 */
@API(status = EXPERIMENTAL)
public final class ExploreSpace {

  /** The most faults one case injects. */
  public static final int MAX_FAULTS = 3;

  /** Checkpoints counted from a fault's injection: the next one or the one after. */
  private static final int MAX_CHECKPOINT_OFFSET = 2;

  /** The largest event or row count drawn; clamped to the workload when planned. */
  private static final int MAX_COUNT = 200;

  /** A fault variant with the kinds of position an explorer places it at. */
  public record Choice(
      FaultInjector injector, FaultVariant variant, List<FaultPosition.Kind> kinds) {

    public Choice {
      Objects.requireNonNull(injector, "injector");
      Objects.requireNonNull(variant, "variant");
      kinds = List.copyOf(kinds);
    }

    /** {@code <fault>} or {@code <fault>:<variant>}. */
    public String name() {
      return FaultVariant.DEFAULT.equals(variant.name())
          ? injector.name()
          : injector.name() + ":" + variant.name();
    }

    boolean snapshotOnly() {
      return kinds.equals(List.of(FaultPosition.Kind.SNAPSHOT_PHASE));
    }
  }

  private final List<Choice> choices;

  private static boolean actsOnTheSource(FaultInjector fault) {
    return fault.requiredCapabilities().contains(SourceEndpointAccess.class)
        || fault.requiredCapabilities().contains(SourceProcessControl.class);
  }

  /**
   * @param faults the discovered faults
   * @param offered the capabilities the pipeline offers (every fault's are assumed when empty)
   */
  public ExploreSpace(
      List<FaultInjector> faults, Set<Class<? extends PipelineCapability>> offered) {
    List<FaultInjector> sorted = new ArrayList<>(faults);
    // Sorted, so that a seed draws the same cases whatever order the plugins were found in.
    sorted.sort(Comparator.comparing(FaultInjector::name));
    List<Choice> all = new ArrayList<>();
    for (FaultInjector fault : sorted) {
      for (FaultVariant variant : fault.variants()) {
        // a known hazard is no finding, a variant's pipeline options cannot hold for one fault
        // of a schedule, and a fault that acts on the source database from outside the job (a
        // killed connection, a crashed server) waits on the source, not on a logical position
        if (variant.knownHazard() != null
            || !variant.pipelineOptions().isEmpty()
            || actsOnTheSource(fault)
            || !offered.isEmpty() && !variant.applicableTo(fault, offered)) {
          continue;
        }
        List<FaultPosition.Kind> kinds = kinds(fault, variant);
        if (!kinds.isEmpty()) {
          all.add(new Choice(fault, variant, kinds));
        }
      }
    }
    if (all.isEmpty()) {
      throw new IllegalArgumentException(
          "No fault to explore: the pipeline can take none of the discovered faults' variants");
    }
    this.choices = List.copyOf(all);
  }

  /**
   * Where a variant may fire. A variant pinned to the snapshot phase stays there; the default
   * variant's position is only a default, so every supported kind but the snapshot phase (which its
   * own variants cover); another pinned variant keeps its kind; an unpinned one takes any kind but
   * around-commit, whose side its parameters may fix (at-checkpoint leaves the side free).
   */
  private static List<FaultPosition.Kind> kinds(FaultInjector fault, FaultVariant variant) {
    Set<FaultPosition.Kind> supported = EnumSet.noneOf(FaultPosition.Kind.class);
    supported.addAll(fault.supportedPositions());
    FaultPosition pinned = variant.position();
    if (pinned instanceof FaultPosition.SnapshotPhase) {
      return List.of(FaultPosition.Kind.SNAPSHOT_PHASE);
    }
    supported.remove(FaultPosition.Kind.SNAPSHOT_PHASE);
    if (FaultVariant.DEFAULT.equals(variant.name())) {
      return List.copyOf(supported);
    }
    if (pinned != null) {
      return List.of(pinned.kind());
    }
    if (supported.size() > 1) {
      supported.remove(FaultPosition.Kind.AROUND_COMMIT);
    }
    return List.copyOf(supported);
  }

  /** The variants drawn from, in a fixed order. */
  public List<Choice> choices() {
    return choices;
  }

  /** Every cell of the space: each variant at each kind of position it may take. */
  public List<String> cells() {
    List<String> cells = new ArrayList<>();
    for (Choice choice : choices) {
      for (FaultPosition.Kind kind : choice.kinds()) {
        cells.add(cell(choice.name(), kind));
      }
    }
    return cells;
  }

  /** A cell's name, e.g. {@code task-exception × after-event}. */
  public static String cell(String choice, FaultPosition.Kind kind) {
    return choice + " × " + kind.text();
  }

  /**
   * Cases of {@code minChanges} to {@code maxChanges} changes and one to {@link #MAX_FAULTS}
   * faults. jqwik shrinks them towards fewer and simpler changes, fewer faults, the first variants
   * and the earliest positions.
   */
  public Arbitrary<ExploreCase> cases(int minChanges, int maxChanges) {
    if (minChanges < 1 || maxChanges < minChanges) {
      throw new IllegalArgumentException(
          "Explored workloads need 1 <= min <= max changes, got " + minChanges + ".." + maxChanges);
    }
    List<Choice> later = choices.stream().filter(choice -> !choice.snapshotOnly()).toList();
    Arbitrary<List<ScheduledFault>> rest =
        later.isEmpty()
            ? Arbitraries.just(List.of())
            : Arbitraries.of(later).flatMap(this::scheduled).list().ofMaxSize(MAX_FAULTS - 1);
    return Combinators.combine(
            Workloads.intents().list().ofMinSize(minChanges).ofMaxSize(maxChanges),
            Arbitraries.of(choices).flatMap(this::scheduled),
            rest)
        .as(
            (intents, first, others) -> {
              List<ScheduledFault> schedule = new ArrayList<>();
              schedule.add(first);
              schedule.addAll(others);
              return new ExploreCase(intents, schedule);
            })
        .filter(ExploreSpace::feasible);
  }

  private Arbitrary<ScheduledFault> scheduled(Choice choice) {
    return Arbitraries.of(choice.kinds())
        .flatMap(ExploreSpace::positions)
        .map(
            position ->
                new ScheduledFault(choice.injector().name(), choice.variant().name(), position));
  }

  private static Arbitrary<FaultPosition> positions(FaultPosition.Kind kind) {
    return switch (kind) {
      case NOW -> Arbitraries.just(new FaultPosition.Now());
      case AFTER_EVENT ->
          Arbitraries.integers().between(0, MAX_COUNT).map(k -> new FaultPosition.AfterEvent(k));
      case AT_CHECKPOINT ->
          Arbitraries.integers()
              .between(1, MAX_CHECKPOINT_OFFSET)
              .map(n -> new FaultPosition.AtCheckpoint(n));
      case AROUND_COMMIT ->
          Combinators.combine(
                  Arbitraries.integers().between(1, MAX_CHECKPOINT_OFFSET),
                  Arbitraries.of(false, true))
              .as((n, afterSwap) -> new FaultPosition.AroundCommit(n, afterSwap));
      case SNAPSHOT_PHASE ->
          Arbitraries.integers().between(0, MAX_COUNT).map(k -> new FaultPosition.SnapshotPhase(k));
    };
  }

  /**
   * Whether every fault of the case can fire: each fault gets a non-empty segment of the writes
   * after the baseline, a snapshot-phase fault comes first and has baseline rows to read, and no
   * fault is pinned to the snapshot phase after it.
   */
  public static boolean feasible(ExploreCase exploreCase) {
    List<ScheduledFault> schedule = exploreCase.schedule();
    if (schedule.isEmpty() || schedule.size() > MAX_FAULTS) {
      return false;
    }
    for (int index = 1; index < schedule.size(); index++) {
      if (schedule.get(index).position() instanceof FaultPosition.SnapshotPhase) {
        return false;
      }
    }
    Workload workload = exploreCase.workload();
    int transactions = workload.transactions().size();
    int baseline = WorkloadPhases.baselineCount(transactions);
    if (transactions - baseline < schedule.size()) {
      return false;
    }
    return !(schedule.get(0).position() instanceof FaultPosition.SnapshotPhase)
        || liveRows(workload.transactions().subList(0, baseline)) > 0;
  }

  /**
   * The faults as the scenario runner takes them: each variant's parameters, positions counted from
   * the injection, and an event count placed within the fault's own segment of the writes (a row
   * count within the baseline's rows), so that it fires.
   */
  public List<PlannedFault> plannedFaults(ExploreCase exploreCase) {
    List<SourceTransaction> transactions = exploreCase.workload().transactions();
    int baseline = WorkloadPhases.baselineCount(transactions.size());
    List<List<SourceTransaction>> segments =
        WorkloadPhases.segments(
            transactions.subList(baseline, transactions.size()), exploreCase.schedule().size());
    int rows = liveRows(transactions.subList(0, baseline));
    List<PlannedFault> planned = new ArrayList<>();
    for (int index = 0; index < exploreCase.schedule().size(); index++) {
      ScheduledFault scheduled = exploreCase.schedule().get(index);
      FaultPosition position = scheduled.position();
      long changes = segments.get(index).stream().mapToLong(t -> t.changes().size()).sum();
      if (position instanceof FaultPosition.AfterEvent after) {
        position = new FaultPosition.AfterEvent(Math.min(after.events(), Math.max(0, changes - 1)));
      } else if (position instanceof FaultPosition.SnapshotPhase snapshot) {
        position =
            new FaultPosition.SnapshotPhase(Math.min(snapshot.rows(), Math.max(0, rows - 1)));
      }
      planned.add(
          new PlannedFault(scheduled.fault(), position, parameters(scheduled, changes), true));
    }
    return planned;
  }

  /**
   * The variant's parameters, and each change count the fault needs that the variant leaves open
   * set to half its segment's changes (at least one): a default such as "replay 50 changes" would
   * wait for writes a short segment never makes.
   */
  private Map<String, String> parameters(ScheduledFault scheduled, long segmentChanges) {
    FaultVariant variant = variant(scheduled);
    Map<String, String> parameters = new LinkedHashMap<>(variant.faultParameters());
    for (Choice choice : choices) {
      if (choice.variant() == variant) {
        for (String count : choice.injector().changeCountParameters()) {
          parameters.putIfAbsent(count, Long.toString(Math.max(1, (segmentChanges + 1) / 2)));
        }
      }
    }
    return parameters;
  }

  /** The discovered variant a scheduled fault names. */
  public FaultVariant variant(ScheduledFault scheduled) {
    for (Choice choice : choices) {
      if (choice.injector().name().equals(scheduled.fault())
          && choice.variant().name().equals(scheduled.variant())) {
        return choice.variant();
      }
    }
    throw new IllegalArgumentException(
        "The case schedules "
            + scheduled.choice()
            + ", which this pipeline's explorer does not draw from; known: "
            + choices.stream().map(Choice::name).toList());
  }

  /** Counts per cell, every cell of the space listed (zero when never tried). */
  public Map<String, Integer> emptyCoverage() {
    Map<String, Integer> coverage = new LinkedHashMap<>();
    cells().forEach(cell -> coverage.put(cell, 0));
    return coverage;
  }

  /** Rows the table holds after these transactions. */
  static int liveRows(List<SourceTransaction> transactions) {
    Set<RowKey> live = new HashSet<>();
    for (SourceTransaction transaction : transactions) {
      for (SourceChange change : transaction.changes()) {
        if (change instanceof SourceChange.Insert insert) {
          live.add(insert.after().key());
        } else if (change instanceof SourceChange.Update update) {
          live.remove(update.before().key());
          live.add(update.after().key());
        } else if (change instanceof SourceChange.Delete delete) {
          live.remove(delete.before().key());
        }
      }
    }
    return live.size();
  }
}
