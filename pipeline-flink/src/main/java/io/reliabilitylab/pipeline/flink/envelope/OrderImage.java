package io.reliabilitylab.pipeline.flink.envelope;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.io.Serializable;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * One image of a row of the source table {@code orders}, as a Flink-serializable value.
 *
 * @param orderId the primary key
 * @param updatedAtMicros {@code updated_at} as microseconds since the epoch (UTC)
 */
@API(status = EXPERIMENTAL)
public record OrderImage(
    long orderId,
    @Nullable String businessKey,
    @Nullable Long customerId,
    @Nullable Long amountCents,
    @Nullable String status,
    @Nullable Long eventId,
    @Nullable Integer seed,
    @Nullable Long updatedAtMicros)
    implements Serializable {}
