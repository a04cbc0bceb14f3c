/**
 * The oracle: applies a workload to an in-memory model and yields the expected current rows and the
 * expected changelog, one envelope per source change.
 */
@NullMarked
package io.reliabilitylab.workload.oracle;

import org.jspecify.annotations.NullMarked;
