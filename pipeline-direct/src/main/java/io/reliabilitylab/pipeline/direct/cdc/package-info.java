/**
 * Turns Flink CDC's Debezium records into the lab's change envelope, keeping op, images and
 * position.
 */
@NullMarked
package io.reliabilitylab.pipeline.direct.cdc;

import org.jspecify.annotations.NullMarked;
