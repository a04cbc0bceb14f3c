/**
 * The broker pipeline's wire format: Debezium's JSON change envelope (no schema) keyed by {@code
 * {"order_id":...}}, decoded strictly into a {@code ChangeEnvelope} and encoded back.
 */
@NullMarked
package io.reliabilitylab.pipeline.broker.wire;

import org.jspecify.annotations.NullMarked;
