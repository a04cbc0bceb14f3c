/**
 * The bench: measures a pipeline's throughput, latency, initial snapshot and reconciliation speed
 * against the source's own write rate, on the run lifecycle's building blocks.
 */
@NullMarked
package io.reliabilitylab.harness.bench;

import org.jspecify.annotations.NullMarked;
