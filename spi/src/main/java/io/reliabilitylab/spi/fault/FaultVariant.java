package io.reliabilitylab.spi.fault;

import static org.apiguardian.api.API.Status.STABLE;

import io.reliabilitylab.spi.pipeline.PipelineCapability;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * One named way to inject a fault, run by the lab as its own scenario: the parameters, the position
 * (or none, to let the lab pick one shortly ahead of the running job) and, for a scenario built on
 * an open upstream bug, the hazard it is expected to expose.
 *
 * <pre>{@code
 * FaultVariant.of("snapshot-phase", "throws while the snapshot is read")
 *     .at(new FaultPosition.SnapshotPhase(200))
 *     .with("replacement", "after");
 * }</pre>
 *
 * @param name the variant's name, unique within its fault; {@code default} for the plain one
 * @param description one line on what this variant does differently
 * @param position where it fires, or null for a position the lab picks ahead of the running job
 * @param parameters the spec parameters it sets; one named {@value #PIPELINE_OPTION_PREFIX}{@code
 *     <key>} is not the fault's but sets the pipeline option {@code <key>} for this variant's
 *     scenario ({@link #withPipelineOption})
 * @param knownHazard null, or the upstream defect this variant reproduces (e.g. {@code
 *     apache/iceberg#10892: ...}): the checks are expected to fail, and a suite reports a failure
 *     as a known hazard detected rather than a defect of the pipeline
 * @param requiredCapabilities what this variant needs beyond its fault's {@link
 *     FaultInjector#requiredCapabilities()} (e.g. TaskManagers that are processes), so that {@code
 *     --faults all} plans it only on a pipeline that offers them
 */
@API(status = STABLE)
public record FaultVariant(
    String name,
    String description,
    @Nullable FaultPosition position,
    Map<String, String> parameters,
    @Nullable String knownHazard,
    Set<Class<? extends PipelineCapability>> requiredCapabilities) {

  /** The name of the variant every fault has. */
  public static final String DEFAULT = "default";

  /** The prefix of a parameter that sets a pipeline option rather than the fault's spec. */
  public static final String PIPELINE_OPTION_PREFIX = "pipeline-option.";

  public FaultVariant {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(description, "description");
    if (!name.matches("[a-z0-9][a-z0-9-]*")) {
      throw new IllegalArgumentException(
          "A fault variant's name is lower-case letters, digits and '-', got '" + name + "'");
    }
    parameters = Collections.unmodifiableMap(new LinkedHashMap<>(parameters));
    requiredCapabilities = Collections.unmodifiableSet(new LinkedHashSet<>(requiredCapabilities));
  }

  /** A variant that needs nothing beyond its fault's capabilities. */
  public FaultVariant(
      String name,
      String description,
      @Nullable FaultPosition position,
      Map<String, String> parameters,
      @Nullable String knownHazard) {
    this(name, description, position, parameters, knownHazard, Set.of());
  }

  /** A variant with no parameters, at a position the lab picks. */
  public static FaultVariant of(String name, String description) {
    return new FaultVariant(name, description, null, Map.of(), null);
  }

  /** The plain variant: no parameters, at a position the lab picks. */
  public static FaultVariant standard(String description) {
    return of(DEFAULT, description);
  }

  /** A copy that fires at {@code at}. */
  public FaultVariant at(FaultPosition at) {
    return new FaultVariant(
        name,
        description,
        Objects.requireNonNull(at),
        parameters,
        knownHazard,
        requiredCapabilities);
  }

  /** A copy with one more parameter. */
  public FaultVariant with(String key, String value) {
    Map<String, String> copy = new LinkedHashMap<>(parameters);
    copy.put(key, value);
    return new FaultVariant(name, description, position, copy, knownHazard, requiredCapabilities);
  }

  /**
   * A copy whose scenario runs the pipeline with option {@code key} set to {@code value} (over the
   * suite's own), for a hazard that lives in a pipeline setting, e.g. the source's heartbeats.
   */
  public FaultVariant withPipelineOption(String key, String value) {
    return with(PIPELINE_OPTION_PREFIX + Objects.requireNonNull(key, "key"), value);
  }

  /** The pipeline options this variant sets for its scenario, by option name. */
  public Map<String, String> pipelineOptions() {
    Map<String, String> options = new LinkedHashMap<>();
    parameters.forEach(
        (key, value) -> {
          if (key.startsWith(PIPELINE_OPTION_PREFIX)) {
            options.put(key.substring(PIPELINE_OPTION_PREFIX.length()), value);
          }
        });
    return Collections.unmodifiableMap(options);
  }

  /** The parameters of the fault's spec: {@link #parameters()} without the pipeline options. */
  public Map<String, String> faultParameters() {
    Map<String, String> own = new LinkedHashMap<>(parameters);
    own.keySet().removeIf(key -> key.startsWith(PIPELINE_OPTION_PREFIX));
    return Collections.unmodifiableMap(own);
  }

  /** A copy expected to diverge because of {@code hazard}, an open upstream defect. */
  public FaultVariant expectedToDiverge(String hazard) {
    return new FaultVariant(
        name,
        description,
        position,
        parameters,
        Objects.requireNonNull(hazard),
        requiredCapabilities);
  }

  /**
   * A copy that also needs {@code capabilities}: a pipeline without them does not plan it under
   * {@code --faults all}, and a run that names it reports it skipped.
   */
  @SafeVarargs
  public final FaultVariant requires(Class<? extends PipelineCapability>... capabilities) {
    Set<Class<? extends PipelineCapability>> copy = new LinkedHashSet<>(requiredCapabilities);
    copy.addAll(List.of(capabilities));
    return new FaultVariant(name, description, position, parameters, knownHazard, copy);
  }

  /**
   * Whether a pipeline offering {@code offered} can run this variant of {@code fault}: it offers (a
   * subtype of) every capability the fault and the variant require.
   */
  public boolean applicableTo(
      FaultInjector fault, Set<Class<? extends PipelineCapability>> offered) {
    Set<Class<? extends PipelineCapability>> needed =
        new LinkedHashSet<>(fault.requiredCapabilities());
    needed.addAll(requiredCapabilities);
    return needed.stream().allMatch(type -> offered.stream().anyMatch(type::isAssignableFrom));
  }

  /** The position, if the variant fixes one. */
  public Optional<FaultPosition> fixedPosition() {
    return Optional.ofNullable(position);
  }

  /** Whether the checks are expected to fail (a known upstream hazard). */
  public boolean expectsDivergence() {
    return knownHazard != null;
  }
}
