/**
 * Seeded, deterministic workloads of source transactions on the {@code orders} table, and a jqwik
 * {@code Arbitrary} of them for property tests.
 */
@NullMarked
package io.reliabilitylab.workload;

import org.jspecify.annotations.NullMarked;
