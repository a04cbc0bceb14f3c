package io.reliabilitylab.spi.pipeline;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/**
 * Tells a fault which logical replication slot the pipeline streams a PostgreSQL source through, so
 * that the fault can find the walsender that serves the pipeline (and no other client of the
 * server) and prove that a new one took over. Offered only by a pipeline on a PostgreSQL source.
 */
@API(status = EXPERIMENTAL)
public interface ReplicationSlotAccess extends PipelineCapability {

  /** The slot's name, as {@code pg_replication_slots.slot_name} shows it. */
  String replicationSlot();
}
