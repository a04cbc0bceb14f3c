/**
 * Bounded-memory sorting of rows and change events: sorted runs spilled to disk and merged, so that
 * a table larger than the heap still reconciles.
 */
@NullMarked
package io.reliabilitylab.checks.sort;

import org.jspecify.annotations.NullMarked;
