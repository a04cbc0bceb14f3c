/**
 * The lab's built-in fault injectors and what they share: fault ids that prove a fault fired, and
 * the capability check that skips a fault, with the reason, on a pipeline that cannot host it.
 */
@NullMarked
package io.reliabilitylab.faults;

import org.jspecify.annotations.NullMarked;
