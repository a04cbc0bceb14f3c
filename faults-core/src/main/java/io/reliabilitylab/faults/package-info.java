/**
 * The lab's built-in fault injectors and what they share: fault ids that prove a fault fired and
 * the proof rules of the built-in faults. Each fault hands out the plugin kit's {@link
 * io.reliabilitylab.kit.ProvenFault}, or a {@link io.reliabilitylab.kit.SkippedFault} with the
 * reason on a pipeline that cannot host it, as a plugin's fault would.
 */
@NullMarked
package io.reliabilitylab.faults;

import org.jspecify.annotations.NullMarked;
