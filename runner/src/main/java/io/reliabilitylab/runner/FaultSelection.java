package io.reliabilitylab.runner;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.reliabilitylab.spi.fault.FaultInjector;
import io.reliabilitylab.spi.fault.FaultPosition;
import io.reliabilitylab.spi.fault.FaultVariant;
import io.reliabilitylab.spi.pipeline.PipelineCapability;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.apiguardian.api.API;

/**
 * Reads a selection of fault variants: {@code none}, {@code all}, or a comma-separated list where a
 * fault's name selects each of its variants and {@code <fault>:<variant>} selects one; either may
 * end in {@code @<parameter>=<value>} (repeatable), which sets that spec parameter over the
 * variant's own, e.g. a longer latency, or, as {@code @position=<position>}, where the fault fires.
 * A checkpoint number written {@code +N} counts from the fault's injection: {@code
 * at-checkpoint:+4} is the fourth checkpoint after the latest the job had when the fault was armed.
 *
 * <pre>{@code
 * FaultSelection.parse("task-failure,savepoint-restore:older-savepoint", discovered);
 * FaultSelection.parse("network-latency:broker@latency-ms=800@jitter-ms=0", discovered);
 * FaultSelection.parse("task-exception@position=after-event:250", discovered);
 * FaultSelection.parse("checkpoint-failure:restart-sync@position=at-checkpoint:+4", discovered);
 * }</pre>
 */
@API(status = EXPERIMENTAL)
public final class FaultSelection {

  /**
   * One variant of one fault, run as its own scenario.
   *
   * @param countedFromInjection whether the variant's checkpoint number counts from the fault's
   *     injection (written {@code +N}) rather than from the job's first checkpoint
   */
  public record Choice(FaultInjector fault, FaultVariant variant, boolean countedFromInjection) {

    public Choice {
      Objects.requireNonNull(fault, "fault");
      Objects.requireNonNull(variant, "variant");
    }

    /** A variant whose checkpoint numbers, if any, count from the job's first checkpoint. */
    public Choice(FaultInjector fault, FaultVariant variant) {
      this(fault, variant, false);
    }

    /** {@code <fault>} for the default variant, else {@code <fault>:<variant>}. */
    public String scenarioName() {
      return FaultVariant.DEFAULT.equals(variant.name())
          ? fault.name()
          : fault.name() + ":" + variant.name();
    }
  }

  /**
   * The one {@code @} setting that is no spec parameter: where the fault fires ({@code
   * @position=after-event:250}), checked against the positions the fault supports.
   */
  public static final String POSITION = "position";

  private FaultSelection() {}

  /**
   * The chosen variants in the order named (each once), or every variant of every fault for {@code
   * all}, or none for {@code none}.
   *
   * @throws IllegalArgumentException for an empty selection or an unknown name, listing the known
   *     ones
   */
  public static List<Choice> parse(String selection, List<FaultInjector> discovered) {
    return parse(selection, discovered, Set.of());
  }

  /**
   * As {@link #parse(String, List)}, but {@code all} keeps only the variants whose required
   * capabilities (the fault's and the variant's own) the pipeline can offer (all of them when
   * {@code offered} is empty: not declared). A fault named alone keeps its default variant either
   * way (skipped, and reported, if the pipeline lacks what it needs) and its other variants where
   * the pipeline can run them (a broker-link variant is no scenario of a pipeline without a
   * broker); a variant named explicitly is kept either way.
   */
  public static List<Choice> parse(
      String selection,
      List<FaultInjector> discovered,
      Set<Class<? extends PipelineCapability>> offered) {
    Objects.requireNonNull(selection, "selection");
    Map<String, FaultInjector> byName = new LinkedHashMap<>();
    discovered.forEach(fault -> byName.put(fault.name(), fault));
    String trimmed = selection.strip();
    if (trimmed.equals("none")) {
      return List.of();
    }
    if (trimmed.equals("all")) {
      List<Choice> all = new ArrayList<>();
      for (FaultInjector fault : discovered) {
        for (FaultVariant variant : fault.variants()) {
          if (offered.isEmpty() || variant.applicableTo(fault, offered)) {
            all.add(new Choice(fault, variant));
          }
        }
      }
      return all;
    }
    Set<String> seen = new LinkedHashSet<>();
    List<Choice> chosen = new ArrayList<>();
    List<String> unknown = new ArrayList<>();
    for (String part : trimmed.split(",", -1)) {
      String name = part.strip();
      if (name.isEmpty()) {
        continue;
      }
      Map<String, String> overrides = new LinkedHashMap<>();
      int at = name.indexOf('@');
      if (at >= 0) {
        overrides = overrides(name);
        name = name.substring(0, at);
      }
      int colon = name.indexOf(':');
      String faultName = colon < 0 ? name : name.substring(0, colon);
      FaultInjector fault = byName.get(faultName);
      if (fault == null) {
        unknown.add(name);
        continue;
      }
      List<FaultVariant> variants =
          fault.variants().stream()
              .filter(
                  v ->
                      offered.isEmpty()
                          || FaultVariant.DEFAULT.equals(v.name())
                          || v.applicableTo(fault, offered))
              .toList();
      if (colon >= 0) {
        variants = fault.variants();
        String variantName = name.substring(colon + 1);
        variants = variants.stream().filter(v -> v.name().equals(variantName)).toList();
        if (variants.isEmpty()) {
          unknown.add(name);
          continue;
        }
      }
      String position = overrides.remove(POSITION);
      FaultPosition placed = position == null ? null : positionOf(fault, position, part.strip());
      boolean fromInjection = placed != null && countsFromInjection(position);
      for (FaultVariant variant : variants) {
        for (Map.Entry<String, String> override : overrides.entrySet()) {
          variant = variant.with(override.getKey(), override.getValue());
        }
        if (placed != null) {
          variant = variant.at(placed);
        }
        Choice choice = new Choice(fault, variant, fromInjection);
        if (seen.add(choice.scenarioName())) {
          chosen.add(choice);
        }
      }
    }
    if (!unknown.isEmpty()) {
      throw new IllegalArgumentException(
          "Unknown fault or variant "
              + unknown
              + "; use 'none', 'all', a fault's name for all its variants, or one of "
              + known(discovered));
    }
    if (chosen.isEmpty()) {
      throw new IllegalArgumentException(
          "No fault selected: name at least one, 'all' or 'none'; known: " + known(discovered));
    }
    return chosen;
  }

  /**
   * {@code @position=<position>}: where the fault fires, over its variant's own position, if the
   * fault can fire there.
   */
  private static FaultPosition positionOf(FaultInjector fault, String text, String selected) {
    FaultPosition position;
    try {
      position = FaultPosition.parse(text);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("'" + selected + "': " + e.getMessage(), e);
    }
    if (!fault.supportedPositions().contains(position.kind())) {
      throw new IllegalArgumentException(
          "'"
              + selected
              + "': fault "
              + fault.name()
              + " cannot fire at "
              + position.text()
              + "; it takes positions of kind "
              + fault.supportedPositions().stream()
                  .map(FaultPosition.Kind::text)
                  .sorted()
                  .toList());
    }
    if (countsFromInjection(text)
        && !(position instanceof FaultPosition.AtCheckpoint
            || position instanceof FaultPosition.AroundCommit)) {
      throw new IllegalArgumentException(
          "'"
              + selected
              + "': '+' counts checkpoints from the fault's injection; write "
              + position.text()
              + " (event and snapshot-row counts always start at the injection)");
    }
    return position;
  }

  /**
   * Whether {@code position} numbers its checkpoint from the injection: {@code at-checkpoint:+4}.
   */
  private static boolean countsFromInjection(String position) {
    return position.strip().matches("[a-z-]+:\\+.*");
  }

  /** The {@code @<parameter>=<value>} parts that end {@code selected}, in order. */
  private static Map<String, String> overrides(String selected) {
    Map<String, String> overrides = new LinkedHashMap<>();
    String[] parts = selected.split("@", -1);
    for (int i = 1; i < parts.length; i++) {
      int equals = parts[i].indexOf('=');
      String key = equals < 0 ? "" : parts[i].substring(0, equals).strip();
      String value = equals < 0 ? "" : parts[i].substring(equals + 1).strip();
      if (key.isEmpty() || value.isEmpty()) {
        throw new IllegalArgumentException(
            "Fault parameter '@"
                + parts[i]
                + "' in '"
                + selected
                + "' is not <parameter>=<value>; write e.g."
                + " network-latency:broker@latency-ms=800 (each fault's parameters are on its page of the site)");
      }
      overrides.put(key, value);
    }
    return overrides;
  }

  /** Every selectable name: each fault and each of its variants as {@code <fault>:<variant>}. */
  public static List<String> known(List<FaultInjector> discovered) {
    List<String> names = new ArrayList<>();
    for (FaultInjector fault : discovered) {
      for (FaultVariant variant : fault.variants()) {
        names.add(new Choice(fault, variant).scenarioName());
      }
    }
    return names;
  }
}
