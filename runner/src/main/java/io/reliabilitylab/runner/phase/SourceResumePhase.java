package io.reliabilitylab.runner.phase;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.reliabilitylab.source.jdbc.ReplicationStart;
import io.reliabilitylab.source.jdbc.ReplicationStarts;
import io.reliabilitylab.spi.check.CheckResult;
import io.reliabilitylab.spi.check.Evidence;
import io.reliabilitylab.spi.check.EvidenceSample;
import io.reliabilitylab.spi.pipeline.ReplicationSlotAccess;
import java.util.List;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * Judges, once the sink caught up, where the source server started every stream of the pipeline's
 * replication slot during the scenario ({@value #NAME}): a restored job asks for the position its
 * checkpoint holds, and a server that had the slot confirmed past it starts later, so that whatever
 * was committed in between never reaches the job, whether or not the workload happened to commit
 * anything there. The evidence comes from the server's own log, so the phase runs only on a source
 * whose log the lab reads ({@link ReplicationStarts}: its embedded PostgreSQL) and a pipeline that
 * names its slot ({@link ReplicationSlotAccess}).
 */
@API(status = INTERNAL)
public final class SourceResumePhase implements Phase {

  /** The check's name in the run record. */
  public static final String NAME = "source-resume";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public Outcome run(Scenario scenario) throws Exception {
    if (!(scenario.source() instanceof ReplicationStarts server)) {
      return Outcome.proceed();
    }
    Optional<ReplicationSlotAccess> slot =
        scenario.running().pipeline().capability(ReplicationSlotAccess.class);
    if (slot.isEmpty()) {
      return Outcome.proceed();
    }
    String name = slot.get().replicationSlot();
    scenario.record().check(judge(name, server.replicationStarts(name)));
    return Outcome.proceed();
  }

  /**
   * Passes when every start of {@code slot} began where the client asked; fails naming each one the
   * server moved forward; inconclusive when the log shows none.
   */
  static CheckResult judge(String slot, List<ReplicationStart> starts) {
    long skipped = starts.stream().filter(ReplicationStart::skipped).count();
    Evidence.Builder evidence =
        Evidence.builder()
            .fact("slot", slot)
            .count("starts", starts.size())
            .count("skipped", skipped);
    int n = 0;
    for (ReplicationStart start : starts) {
      n++;
      evidence.fact("start_" + n, describe(start));
      if (start.skipped()) {
        evidence.sample(
            EvidenceSample.of(
                "skipped_wal",
                "slot " + slot,
                "at "
                    + start.at()
                    + " the job asked for "
                    + start.requested()
                    + " but the slot had been confirmed to "
                    + start.startedAfter()
                    + ": the server streamed from there, and transactions committed in between"
                    + " never reached the job"));
      }
    }
    if (starts.isEmpty()) {
      return CheckResult.inconclusive(
          NAME,
          "the server logged no start of slot " + slot + ": where its streams began is unknown",
          evidence.build());
    }
    if (skipped > 0) {
      return CheckResult.failed(
          NAME,
          skipped
              + " of "
              + starts.size()
              + " starts of slot "
              + slot
              + " began past the position the job asked for: the WAL in between was skipped",
          evidence.build());
    }
    return CheckResult.passed(
        NAME,
        "all "
            + starts.size()
            + " starts of slot "
            + slot
            + " began where the job asked (the slot never stood ahead of its checkpoints)",
        evidence.build());
  }

  private static String describe(ReplicationStart start) {
    return start.at()
        + ": asked for "
        + (start.requested().isEmpty() ? "(not logged)" : start.requested())
        + ", streamed after "
        + start.startedAfter()
        + (start.skipped() ? " (skipped)" : "");
  }
}
