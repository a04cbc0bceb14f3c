/**
 * The run record: one JSON document per run (and one summary per suite) that says what was run,
 * where, with which configuration, what was injected, what was checked and what it proves — its
 * model, the verdict and exit code computed from it, and its writer and reader.
 */
@NullMarked
package io.reliabilitylab.record;

import org.jspecify.annotations.NullMarked;
