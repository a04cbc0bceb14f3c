/**
 * The built-in {@link io.reliabilitylab.spi.check.ReconciliationCheck}s: snapshot diff, event-id
 * audit, changelog completeness, duplicate keys and current/changelog consistency, all streaming
 * over inputs sorted with bounded memory; and, for broker pipelines, offset/checkpoint/snapshot
 * linkage and dead-letter integrity.
 */
@NullMarked
package io.reliabilitylab.checks;

import org.jspecify.annotations.NullMarked;
