/**
 * Orchestration: discovery, seeded workloads and their oracle, the run lifecycle, run records and
 * the command line.
 */
@NullMarked
package io.reliabilitylab.harness;

import org.jspecify.annotations.NullMarked;
