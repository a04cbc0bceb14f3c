/**
 * Random fault schedules against a real pipeline: jqwik draws a workload and one to three faults at
 * logical positions, runs each case through the lab's scenario lifecycle, and when a case fails
 * shrinks it to a minimal one that replays from a file.
 */
@NullMarked
package io.reliabilitylab.harness.explore;

import org.jspecify.annotations.NullMarked;
