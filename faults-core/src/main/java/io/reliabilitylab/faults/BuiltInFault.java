package io.reliabilitylab.faults;

import io.reliabilitylab.kit.CapabilityCheck;
import io.reliabilitylab.kit.Observation;
import io.reliabilitylab.kit.PipelineView;
import io.reliabilitylab.kit.ProvenFault;
import io.reliabilitylab.kit.SkippedFault;
import io.reliabilitylab.spi.fault.FaultContext;
import io.reliabilitylab.spi.fault.FaultHandle;
import io.reliabilitylab.spi.fault.FaultInjector;
import io.reliabilitylab.spi.fault.FaultPosition;
import io.reliabilitylab.spi.fault.FaultSpec;
import io.reliabilitylab.spi.pipeline.FaultPoints;
import io.reliabilitylab.spi.pipeline.PipelineCapability;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * What every built-in fault does the same way: skip with the reason on a pipeline that lacks a
 * capability or fault point, refuse a position or parameter it does not support, take the baseline
 * before it changes anything, and hand out a {@link ProvenFault} (from the plugin kit) that proves,
 * measures and heals.
 */
abstract class BuiltInFault implements FaultInjector {

  /** The fault point wrapping the source's split enumerator. */
  static final String SOURCE_ENUMERATOR = "source-enumerator";

  /** The fault point in an operator of the job. */
  static final String OPERATOR = "operator";

  /** The fault point in the checkpoint storage (the asynchronous part of a checkpoint). */
  static final String CHECKPOINT_STORAGE = "checkpoint-storage";

  /** The fault point around the sink's commits. */
  static final String SINK_COMMIT = "sink-commit";

  static final String THROW = "throw";
  static final String STALL = "stall";
  static final String FAIL_COMMIT_BEFORE_SWAP = "fail-commit-before-swap";
  static final String FAIL_COMMIT_AFTER_SWAP = "fail-commit-after-swap";
  static final String COMMIT_STATE_UNKNOWN = "commit-state-unknown";

  /** The fault point around the commits of the current (upsert) table only. */
  static final String SINK_COMMIT_CURRENT = "sink-commit-current";

  /** The spec parameters this fault understands, each with one line on what it does. */
  abstract Map<String, String> parameters();

  /** Injects, on a pipeline known to offer every required capability, at a supported position. */
  abstract FaultHandle start(FaultContext context, PipelineView view) throws Exception;

  /**
   * The capabilities this spec needs beyond {@link #requiredCapabilities()}: a variant may need
   * more than the plain fault (losing the cluster needs {@code SavepointControl}). A pipeline that
   * lacks them gets the spec skipped with the reason, like a missing required capability.
   */
  Set<Class<? extends PipelineCapability>> extraCapabilities(FaultSpec spec) {
    return Set.of();
  }

  @Override
  public final FaultHandle inject(FaultContext context) throws Exception {
    Objects.requireNonNull(context, "context");
    Optional<FaultHandle> skipped = CapabilityCheck.skipIfMissing(this, context);
    if (skipped.isPresent()) {
      return skipped.get();
    }
    FaultSpec spec = context.spec();
    if (!spec.fault().equals(name())) {
      throw new IllegalArgumentException(
          "Fault spec " + spec.id() + " names fault '" + spec.fault() + "', not '" + name() + "'");
    }
    if (!supportedPositions().contains(spec.position().kind())) {
      throw new IllegalArgumentException(
          "Fault '"
              + name()
              + "' cannot fire at "
              + spec.position().text()
              + "; it supports "
              + supportedPositions().stream()
                  .map(FaultPosition.Kind::text)
                  .collect(Collectors.joining(", ")));
    }
    Set<String> unknown = new TreeSet<>(spec.parameters().keySet());
    unknown.removeAll(parameters().keySet());
    if (!unknown.isEmpty()) {
      throw new IllegalArgumentException(
          "Fault '"
              + name()
              + "' does not understand parameter(s) "
              + unknown
              + "; it takes "
              + (parameters().isEmpty() ? "none" : parameters().keySet()));
    }
    List<Class<? extends PipelineCapability>> missing =
        CapabilityCheck.missing(extraCapabilities(spec), context.pipeline());
    if (!missing.isEmpty()) {
      return SkippedFault.because(
          context,
          "pipeline '"
              + context.pipeline().name()
              + "' lacks "
              + missing.stream().map(Class::getSimpleName).collect(Collectors.joining(", "))
              + ", which fault '"
              + name()
              + "' needs with parameters "
              + spec.parameters());
    }
    return start(context, PipelineView.of(context));
  }

  /** A handle reporting the spec skipped for {@code reason}: nothing was changed. */
  static FaultHandle skipped(FaultContext context, String reason) {
    return SkippedFault.because(context, reason);
  }

  /** A whole-number parameter of at least 1, or its default. */
  static long positiveLong(FaultSpec spec, String key, long defaultValue) {
    return longAtLeast(spec, key, defaultValue, 1);
  }

  /** A whole-number parameter of at least 0, or its default. */
  static long nonNegativeLong(FaultSpec spec, String key, long defaultValue) {
    return longAtLeast(spec, key, defaultValue, 0);
  }

  private static long longAtLeast(FaultSpec spec, String key, long defaultValue, long least) {
    String text = spec.parameter(key, Long.toString(defaultValue));
    try {
      long value = Long.parseLong(text);
      if (value >= least) {
        return value;
      }
    } catch (NumberFormatException e) {
      // reported below with the fault's id
    }
    throw new IllegalArgumentException(
        "Parameter "
            + key
            + " of "
            + spec.id()
            + " must be a whole number >= "
            + least
            + ", got '"
            + text
            + "'");
  }

  /** A parameter that must be one of {@code choices}; the first choice is the default. */
  static String choice(FaultSpec spec, String key, String defaultValue, Set<String> choices) {
    String value = spec.parameter(key, defaultValue);
    if (!choices.contains(value)) {
      throw new IllegalArgumentException(
          "Parameter '"
              + key
              + "' of fault "
              + spec.id()
              + " is '"
              + value
              + "'; use one of "
              + new TreeSet<>(choices));
    }
    return value;
  }

  /**
   * A skipped handle when the job lacks the fault point, or empty when it has it: a fault the job
   * cannot host is never reported as fired.
   */
  static Optional<FaultHandle> skipIfPointMissing(
      FaultContext context, PipelineView view, String point) {
    FaultPoints points = view.faultPoints().orElseThrow();
    Set<String> available = points.available();
    if (available.contains(point)) {
      return Optional.empty();
    }
    return Optional.of(
        SkippedFault.because(
            context,
            "pipeline '"
                + context.pipeline().name()
                + "' offers FaultPoints but no fault point '"
                + point
                + "' (it has "
                + new TreeSet<>(available)
                + ")"));
  }

  /**
   * Takes the baseline, arms {@code point} with {@code action} at the spec's position and returns
   * the run's builder, healed by disarming. Arming happens last, so a refused arming changes
   * nothing.
   */
  static ProvenFault.Builder armPoint(
      FaultContext context, PipelineView view, String point, String action, FaultPosition at) {
    FaultPoints points = view.faultPoints().orElseThrow();
    Observation baseline = view.observe();
    String faultId = context.spec().id();
    points.arm(point, at, action, faultId);
    return ProvenFault.builder(context, view, baseline)
        .what(action + " at fault point '" + point + "' at " + at.text())
        .detail("fault_point", point)
        .detail("action", action)
        .detail("position", at.text())
        .healing(() -> points.disarm(faultId));
  }
}
