package io.reliabilitylab.harness.explore;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.reliabilitylab.spi.fault.FaultPosition;
import io.reliabilitylab.spi.fault.FaultVariant;
import java.util.Objects;
import org.apiguardian.api.API;

/**
 * One fault of a random schedule: which fault, which of its variants, and where it fires. The
 * position counts from the fault's injection: {@code at-checkpoint:2} is the second checkpoint
 * after it, {@code after-event:12} the thirteenth change written after it.
 */
@API(status = EXPERIMENTAL)
public record ScheduledFault(String fault, String variant, FaultPosition position) {

  public ScheduledFault {
    Objects.requireNonNull(fault, "fault");
    Objects.requireNonNull(variant, "variant");
    Objects.requireNonNull(position, "position");
  }

  /** {@code <fault>} or {@code <fault>:<variant>}, as {@code run --faults} names it. */
  public String choice() {
    return FaultVariant.DEFAULT.equals(variant) ? fault : fault + ":" + variant;
  }

  /** The coverage cell this fault falls in: its choice and the kind of its position. */
  public String cell() {
    return ExploreSpace.cell(choice(), position.kind());
  }

  /** {@code <choice>@<position>}, e.g. {@code task-exception@after-event:12}. */
  public String text() {
    return choice() + "@" + position.text();
  }

  /** Reads {@link #text()} back. */
  public static ScheduledFault parse(String text) {
    int at = text.indexOf('@');
    if (at <= 0) {
      throw new IllegalArgumentException(
          "A scheduled fault reads <fault>[:<variant>]@<position>, got '" + text + "'");
    }
    String choice = text.substring(0, at);
    int colon = choice.indexOf(':');
    String fault = colon < 0 ? choice : choice.substring(0, colon);
    String variant = colon < 0 ? FaultVariant.DEFAULT : choice.substring(colon + 1);
    return new ScheduledFault(fault, variant, FaultPosition.parse(text.substring(at + 1)));
  }

  @Override
  public String toString() {
    return text();
  }
}
