/**
 * Dead letters: the JSON record the pipeline writes to {@code <topic>.dlq} for a change record it
 * cannot decode, its conversion to the SPI's {@code DlqRecord}, and the repair that recovers and
 * republishes the intended change.
 */
@NullMarked
package io.reliabilitylab.pipeline.broker.dlq;

import org.jspecify.annotations.NullMarked;
