/**
 * The run lifecycle: prepare the source, start the pipeline, write the seeded workload, await
 * catch-up by measurement, reconcile, and write the run record. Every wait has a deadline.
 */
@NullMarked
package io.reliabilitylab.runner;

import org.jspecify.annotations.NullMarked;
