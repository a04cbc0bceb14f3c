package io.reliabilitylab.faults;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.reliabilitylab.spi.check.DlqRecord;
import io.reliabilitylab.spi.check.LinkageRecord;
import io.reliabilitylab.spi.fault.FaultContext;
import io.reliabilitylab.spi.fault.FaultEvidence;
import io.reliabilitylab.spi.fault.FaultHandle;
import io.reliabilitylab.spi.fault.FaultInjector;
import io.reliabilitylab.spi.fault.FaultPosition;
import io.reliabilitylab.spi.fault.FaultSpec;
import io.reliabilitylab.spi.fault.FaultStatus;
import io.reliabilitylab.spi.fault.RecoveryEvidence;
import io.reliabilitylab.spi.pipeline.BrokerControl;
import io.reliabilitylab.spi.pipeline.DeadLetterQueue;
import io.reliabilitylab.spi.pipeline.ReplayDeduplication;
import io.reliabilitylab.spi.pipeline.SnapshotInfo;
import io.reliabilitylab.spi.pipeline.SourceConnectorControl;
import io.reliabilitylab.spi.pipeline.SourceConnectorControl.CorruptedRecord;
import io.reliabilitylab.testkit.simulated.SimulatedBroker;
import io.reliabilitylab.testkit.simulated.SimulatedPipeline;
import java.net.ConnectException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the broker path's faults ({@code poison-message}, {@code duplicate-redelivery}, {@code
 * broker-restart}) accept as proof on a {@link SimulatedBroker}, and what they refuse.
 */
class BrokerFaultProofTest {

  private static final Duration WAIT = Duration.ofSeconds(10);
  private static final Duration SHORT = Duration.ofMillis(400);
  private static final String POISON_ID = FaultIds.of(1, "poison-message");

  @TempDir Path workDirectory;

  private final List<SimulatedPipeline> pipelines = new ArrayList<>();

  @AfterEach
  void stopPipelines() {
    pipelines.forEach(SimulatedPipeline::close);
  }

  // the simulation itself

  @Test
  void theSimulatedBrokerBehavesLikeTheRealPathInMiniature() throws Exception {
    SimulatedPipeline pipeline = brokerPipeline();
    SourceConnectorControl connector = connector(pipeline);
    DeadLetterQueue dlq = pipeline.capability(DeadLetterQueue.class).orElseThrow();
    BrokerControl broker = broker(pipeline);
    ReplayDeduplication dedup = pipeline.capability(ReplayDeduplication.class).orElseThrow();

    long before = connector.published();
    await(() -> connector.published() > before + 20, "the connector publishes on the tick");

    connector.corruptNext(2, "srl-fault-9-poison-message");
    await(() -> connector.corrupted("srl-fault-9-poison-message").isPresent(), "a corruption");
    CorruptedRecord corrupted = connector.corrupted("srl-fault-9-poison-message").orElseThrow();
    assertThat(connector.status()).isEqualTo("STOPPED");
    assertThat(corrupted.valueSha256()).hasSize(64);
    assertThat(corrupted.eventId()).isNotNull();
    await(() -> !dlq.records().isEmpty(), "the dead-letter copy");
    DlqRecord copy = dlq.records().get(0);
    assertThat(copy.originalOffset()).isEqualTo(corrupted.offset());
    assertThat(copy.originalValueSha256()).isEqualTo(corrupted.valueSha256());

    long eventId = corrupted.eventId();
    DeadLetterQueue.Repair repair = dlq.repair(copy);
    assertThat(repair.repaired()).isTrue();
    assertThat(repair.eventId()).isEqualTo(eventId);
    await(
        () -> pipeline.changelogContains(latestChangelogSnapshot(pipeline), eventId),
        "the repaired event in the changelog");
    connector.start();

    String mark = connector.markOffsets();
    long droppedBefore = dedup.droppedReplays();
    long atMark = connector.published();
    await(() -> connector.published() >= atMark + 30, "records after the mark");
    connector.restartFrom(mark);
    await(connector::caughtUp, "the connector catching up");
    long republished = connector.republished();
    assertThat(republished).isGreaterThanOrEqualTo(30);
    await(
        () -> dedup.droppedReplays() - droppedBefore == republished,
        "the dedup dropping every replay");

    broker.stop();
    assertThatThrownBy(() -> broker.observeLinkage("down")).isInstanceOf(ConnectException.class);
    assertThatThrownBy(dlq::records).isInstanceOf(ConnectException.class);
    broker.start();
    connector.stop(); // nothing more to publish: the final observation can see lag 0
    LinkageRecord linkage = broker.observeLinkage("final");
    assertThat(linkage.offsets()).singleElement().satisfies(p -> assertThat(p.lag()).isZero());
    assertThat(broker.observations()).extracting(LinkageRecord::label).containsExactly("final");
  }

  // poison-message

  @Test
  void aPoisonIsQuarantinedOnceRepairedIntoTheChangelogAndTheConnectorResumesAfter()
      throws Exception {
    SimulatedPipeline pipeline = brokerPipeline();
    SourceConnectorControl connector = connector(pipeline);
    DeadLetterQueue dlq = pipeline.capability(DeadLetterQueue.class).orElseThrow();

    try (FaultHandle handle = inject(new PoisonMessageInjector(), pipeline, Map.of("k", "3"))) {
      FaultEvidence evidence = handle.awaitFired(WAIT);

      assertThat(evidence.status()).as("%s", evidence).isEqualTo(FaultStatus.FIRED);
      CorruptedRecord corrupted = connector.corrupted(POISON_ID).orElseThrow();
      long eventId = corrupted.eventId();
      Map<String, String> details = evidence.details();
      assertThat(details)
          .containsEntry("k", "3")
          .containsEntry("repair", "true")
          .containsEntry("repair_outcome", "recovered the update of order " + eventId)
          .containsEntry("value_sha256", corrupted.valueSha256())
          .containsEntry("event_id", Long.toString(eventId))
          .containsEntry("connector_status_during_injection", "STOPPED")
          .containsEntry("connector_status_after_resume", "RUNNING")
          .containsEntry("dlq_record", SimulatedBroker.DLQ_TOPIC + "/0@0")
          .containsEntry("repair_converged_before_connector_resume", "true")
          .containsKeys("producer_metadata", "repair_producer_metadata");
      long seenIn = Long.parseLong(details.get("repair_seen_in_changelog_snapshot"));
      assertThat(pipeline.changelogContains(seenIn, eventId)).isTrue();
      assertThat(evidence.proofs())
          .anySatisfy(p -> assertThat(p).contains("exactly one dead-letter record"))
          .anySatisfy(p -> assertThat(p).contains("without a restart"))
          .anySatisfy(
              p ->
                  assertThat(p)
                      .contains("seen in changelog snapshot " + seenIn, "before the connector"));
      assertThat(dlq.records()).hasSize(1);
      assertThat(dlq.repairs()).singleElement().satisfies(r -> assertThat(r.repaired()).isTrue());
      assertThat(broker(pipeline).observations())
          .extracting(LinkageRecord::label)
          .containsExactly("repair");
      RecoveryEvidence recovery = handle.awaitRecovery(WAIT);
      assertThat(recovery.recovered()).isTrue();
      assertThat(recovery.restarts()).isZero();

      handle.close();
      assertThat(handle.evidence().details()).doesNotContainKey("healing_problem");
      assertThat(connector.status()).isEqualTo("RUNNING");
      assertThat(pipeline.broker().connectorStarts()).as("resumed exactly once").isEqualTo(1);
    }
  }

  @Test
  void anUnrepairedPoisonFiresButItsChangeNeverReachesTheChangelog() throws Exception {
    SimulatedPipeline pipeline = brokerPipeline();
    SourceConnectorControl connector = connector(pipeline);

    try (FaultHandle handle =
        inject(new PoisonMessageInjector(), pipeline, Map.of("repair", "false"))) {
      FaultEvidence evidence = handle.awaitFired(WAIT);
      RecoveryEvidence recovery = handle.awaitRecovery(WAIT);

      assertThat(evidence.status()).as("%s", evidence).isEqualTo(FaultStatus.FIRED);
      assertThat(evidence.details())
          .containsEntry("repair", "false")
          .doesNotContainKeys("repair_seen_in_changelog_snapshot");
      assertThat(evidence.proofs()).noneSatisfy(p -> assertThat(p).contains("repair"));
      assertThat(pipeline.capability(DeadLetterQueue.class).orElseThrow().repairs()).isEmpty();
      assertThat(recovery.recovered()).isTrue();
      long eventId = connector.corrupted(POISON_ID).orElseThrow().eventId();
      assertThat(pipeline.changelogContains(latestChangelogSnapshot(pipeline), eventId))
          .as("the control loses the change")
          .isFalse();
      assertThat(connector.status()).isEqualTo("RUNNING");
    }
  }

  @Test
  void aPoisonTheJobReadsPastWithoutADeadLetterFiresWithNothingToRepair() throws Exception {
    SimulatedPipeline pipeline = brokerPipeline();
    pipeline.broker().dropUndecodable();
    SourceConnectorControl connector = connector(pipeline);

    try (FaultHandle handle = inject(new PoisonMessageInjector(), pipeline, Map.of())) {
      FaultEvidence evidence = handle.awaitFired(WAIT);
      RecoveryEvidence recovery = handle.awaitRecovery(WAIT);

      assertThat(evidence.status()).as("%s", evidence).isEqualTo(FaultStatus.FIRED);
      assertThat(evidence.details())
          .containsEntry("dlq_record", "none")
          .containsEntry("connector_status_after_resume", "RUNNING")
          .doesNotContainKeys("repair_outcome", "repair_seen_in_changelog_snapshot");
      assertThat(evidence.details().get("read_past_without_dead_letter"))
          .startsWith("group " + SimulatedBroker.CONSUMER_GROUP + " committed offset ");
      assertThat(evidence.proofs())
          .anySatisfy(p -> assertThat(p).contains("read past it without a dead-letter record"))
          .noneSatisfy(p -> assertThat(p).contains("exactly one dead-letter record"));
      assertThat(pipeline.capability(DeadLetterQueue.class).orElseThrow().records()).isEmpty();
      assertThat(broker(pipeline).observations())
          .extracting(LinkageRecord::label)
          .contains("poison-read-past");
      assertThat(recovery.recovered()).isTrue();
      long eventId = connector.corrupted(POISON_ID).orElseThrow().eventId();
      assertThat(pipeline.changelogContains(latestChangelogSnapshot(pipeline), eventId))
          .as("the dropped change is lost, for the checks to find")
          .isFalse();
    }
  }

  @Test
  void twoDeadLetterCopiesOfOneOriginalRefuteThePoison() throws Exception {
    SimulatedPipeline pipeline = brokerPipeline();
    pipeline.broker().quarantineTwice();

    FaultHandle handle = inject(new PoisonMessageInjector(), pipeline, Map.of());
    FaultEvidence evidence = handle.awaitFired(WAIT);
    handle.close();

    assertThat(evidence.status()).isEqualTo(FaultStatus.NOT_PROVEN);
    assertThat(evidence.reason())
        .contains(
            "2 dead-letter records for " + SimulatedBroker.TOPIC + "/0@", "expected exactly 1");
    assertResumedOnce(pipeline, handle);
  }

  @Test
  void aSecondDeadLetterCopyWrittenAfterTheFirstWasSeenStillRefutesThePoison() throws Exception {
    SimulatedPipeline pipeline = brokerPipeline();
    pipeline.broker().quarantineAgainAfterRepair();

    FaultHandle handle = inject(new PoisonMessageInjector(), pipeline, Map.of());
    FaultEvidence evidence = handle.awaitFired(WAIT);
    handle.close();

    assertThat(evidence.status()).isEqualTo(FaultStatus.NOT_PROVEN);
    assertThat(evidence.reason()).contains("2 dead-letter records", "expected exactly 1");
    assertThat(evidence.proofs()).isEmpty();
    assertResumedOnce(pipeline, handle);
  }

  @Test
  void aDeadLetterCopyKeepingOtherBytesRefutesThePoison() throws Exception {
    SimulatedPipeline pipeline = brokerPipeline();
    pipeline.broker().dlqAltersBytes();

    FaultHandle handle = inject(new PoisonMessageInjector(), pipeline, Map.of());
    FaultEvidence evidence = handle.awaitFired(WAIT);
    handle.close();

    String corrupted = connector(pipeline).corrupted(POISON_ID).orElseThrow().valueSha256();
    assertThat(evidence.status()).isEqualTo(FaultStatus.NOT_PROVEN);
    assertThat(evidence.reason())
        .contains("keeps bytes with SHA-256", "not the corrupted record's " + corrupted);
    assertResumedOnce(pipeline, handle);
  }

  @Test
  void aPoisonThatRestartedTheJobIsRefuted() throws Exception {
    SimulatedPipeline pipeline = brokerPipeline();
    pipeline.broker().failJobOnPoison();

    try (FaultHandle handle = inject(new PoisonMessageInjector(), pipeline, Map.of())) {
      FaultEvidence evidence = handle.awaitFired(WAIT);

      assertThat(evidence.status()).isEqualTo(FaultStatus.NOT_PROVEN);
      assertThat(evidence.reason())
          .contains("the job restarted (0 → 1)", "must be quarantined, not fail the job");
      assertThat(evidence.details()).containsEntry("restart_count_after", "1");
    }
  }

  @Test
  void aRepairThatRecoversNothingRefutesThePoisonAndTheConnectorResumes() throws Exception {
    SimulatedPipeline pipeline = brokerPipeline();
    pipeline.broker().repairFails();

    FaultHandle handle = inject(new PoisonMessageInjector(), pipeline, Map.of());
    FaultEvidence evidence = handle.awaitFired(WAIT);
    handle.close();

    assertThat(evidence.status()).isEqualTo(FaultStatus.NOT_PROVEN);
    assertThat(evidence.reason())
        .contains("the repair could not recover the change", "does not decode");
    assertResumedOnce(pipeline, handle);
  }

  @Test
  void aRefutedPoisonResumesTheConnectorBeforeSayingSoSoClosingNeverStartsItTwice()
      throws Exception {
    SimulatedPipeline pipeline = brokerPipeline();
    // a start that takes a while, as an engine's does: closing right after the refutation must
    // not start the connector a second time while the first start is under way
    pipeline.broker().repairFails().connectorStartTakes(Duration.ofMillis(600));

    FaultHandle handle = inject(new PoisonMessageInjector(), pipeline, Map.of());
    FaultEvidence evidence = handle.awaitFired(WAIT);
    handle.close();

    assertThat(evidence.status()).isEqualTo(FaultStatus.NOT_PROVEN);
    assertThat(evidence.reason()).doesNotContain("restarting the connector failed");
    assertResumedOnce(pipeline, handle);
  }

  @Test
  void closingBeforeThePoisonFiredStopsTheDriverAndLeavesTheConnectorRunning() throws Exception {
    SimulatedPipeline pipeline = brokerPipeline();

    FaultHandle handle =
        inject(new PoisonMessageInjector(), pipeline, Map.of("k", Long.toString(Long.MAX_VALUE)));
    assertThat(handle.evidence().status()).isEqualTo(FaultStatus.ARMED);
    handle.close();
    handle.close();

    assertThat(Thread.getAllStackTraces().keySet())
        .as("the poison's driver thread ended with close()")
        .noneSatisfy(t -> assertThat(t.getName()).contains(POISON_ID));
    assertThat(connector(pipeline).status()).isEqualTo("RUNNING");
    assertThat(pipeline.broker().connectorStarts()).isZero();
    assertThat(handle.evidence().details()).doesNotContainKey("healing_problem");
  }

  @Test
  void badPoisonParametersAreRefusedBeforeAnythingIsCorrupted() throws Exception {
    SimulatedPipeline pipeline = brokerPipeline();

    assertThatThrownBy(() -> inject(new PoisonMessageInjector(), pipeline, Map.of("k", "0")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("Parameter k of " + POISON_ID + " must be a whole number >= 1");
    assertThatThrownBy(
            () -> inject(new PoisonMessageInjector(), pipeline, Map.of("repair", "maybe")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("use one of [false, true]");
    assertThatThrownBy(
            () ->
                inject(
                    new PoisonMessageInjector(),
                    pipeline,
                    new FaultPosition.AfterEvent(10),
                    Map.of()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("cannot fire at after-event:10; it supports now");

    assertThat(connector(pipeline).corrupted(POISON_ID)).isEmpty();
    assertThatCode(() -> connector(pipeline).corruptNext(1, "srl-fault-2-poison-message"))
        .as("nothing was armed before")
        .doesNotThrowAnyException();
  }

  // duplicate-redelivery

  @Test
  void aRedeliveryIsProvenByEveryReplayReachingTheDedup() throws Exception {
    SimulatedPipeline pipeline = brokerPipeline();

    try (FaultHandle handle =
        inject(new DuplicateRedeliveryInjector(), pipeline, Map.of("events", "20"))) {
      FaultEvidence evidence = handle.awaitFired(WAIT);
      RecoveryEvidence recovery = handle.awaitRecovery(WAIT);

      assertThat(evidence.status()).as("%s", evidence).isEqualTo(FaultStatus.FIRED);
      long republished = Long.parseLong(evidence.details().get("republished"));
      long dropped = Long.parseLong(evidence.details().get("dropped_replays"));
      assertThat(republished).isGreaterThanOrEqualTo(20);
      assertThat(dropped).isGreaterThanOrEqualTo(republished);
      assertThat(evidence.details())
          .containsEntry("events", "20")
          .containsEntry("offsets_mark", "offsets-1")
          .containsKeys("published_at_mark", "dropped_replays_before", "rewound_at");
      assertThat(evidence.proofs())
          .anySatisfy(p -> assertThat(p).contains("republished " + republished, "caught up"))
          .anySatisfy(p -> assertThat(p).contains("saw ", "and dropped " + dropped));
      assertThat(recovery.recovered()).isTrue();
      assertThat(connector(pipeline).caughtUp()).isTrue();
    }
  }

  @Test
  void aDedupThatLetsReplaysThroughStillProvesTheRedeliveryAndRecordsWhatItDropped()
      throws Exception {
    SimulatedPipeline pipeline = brokerPipeline();
    pipeline.broker().dedupPassesEveryOtherReplay();

    try (FaultHandle handle =
        inject(new DuplicateRedeliveryInjector(), pipeline, Map.of("events", "20"))) {
      FaultEvidence evidence = handle.awaitFired(WAIT);

      // the redelivery reached the job; the duplicates it let through are the checks' to fail
      assertThat(evidence.status()).as("%s", evidence).isEqualTo(FaultStatus.FIRED);
      long republished = Long.parseLong(evidence.details().get("republished"));
      assertThat(Long.parseLong(evidence.details().get("seen_replays")))
          .isGreaterThanOrEqualTo(republished);
      assertThat(Long.parseLong(evidence.details().get("dropped_replays"))).isLessThan(republished);
      assertThat(connector(pipeline).caughtUp()).isTrue();
    }
  }

  @Test
  void aRedeliveryThatNeverReachesTheJobStaysPendingAndEndsNotProven() throws Exception {
    SimulatedPipeline pipeline = brokerPipeline();
    pipeline.broker().dedupCountsNothing();

    try (FaultHandle handle =
        inject(new DuplicateRedeliveryInjector(), pipeline, Map.of("events", "20"))) {
      FaultEvidence evidence = handle.awaitFired(SHORT);

      assertThat(evidence.status()).isEqualTo(FaultStatus.NOT_PROVEN);
      assertThat(evidence.reason())
          .contains("not proven within", "the job's deduplication saw 0 of");
    }
  }

  @Test
  void aRedeliveryThatRestartedTheJobIsRefuted() throws Exception {
    SimulatedPipeline pipeline = brokerPipeline();
    pipeline.broker().failJobOnReplay();

    try (FaultHandle handle =
        inject(new DuplicateRedeliveryInjector(), pipeline, Map.of("events", "20"))) {
      FaultEvidence evidence = handle.awaitFired(WAIT);

      assertThat(evidence.status()).isEqualTo(FaultStatus.NOT_PROVEN);
      assertThat(evidence.reason())
          .contains("the job restarted during the redelivery", "dedup counter restarted");
    }
  }

  @Test
  void aRewindThatFailsHalfWayLeavesTheConnectorRunning() {
    SimulatedPipeline pipeline = brokerPipeline();
    pipeline.broker().rewindFails();

    assertThatThrownBy(
            () -> inject(new DuplicateRedeliveryInjector(), pipeline, Map.of("events", "5")))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("cannot replace the offset file");
    assertThat(connector(pipeline).status()).isEqualTo("RUNNING");
  }

  @Test
  void aConnectorThatPublishesTooLittleToReplayIsSkippedWithTheReason() throws Exception {
    SimulatedPipeline pipeline = brokerPipeline();
    connector(pipeline).stop();

    FaultHandle handle =
        inject(
            new DuplicateRedeliveryInjector(),
            pipeline,
            new FaultPosition.Now(),
            Map.of(),
            Duration.ofMillis(100));

    assertThat(handle.evidence().status()).isEqualTo(FaultStatus.SKIPPED);
    assertThat(handle.evidence().reason())
        .contains("published 0 of 50 change records after the mark", "lower 'events'");
    handle.close();
  }

  // broker-restart

  @Test
  void aBrokerRestartIsProvenByAFailedRequestWhileDownAndAnAnswerAfter() throws Exception {
    SimulatedPipeline pipeline = brokerPipeline();

    try (FaultHandle handle = inject(new BrokerRestartInjector(), pipeline, Map.of("down", "20"))) {
      FaultEvidence evidence = handle.awaitFired(WAIT);
      RecoveryEvidence recovery = handle.awaitRecovery(WAIT);

      assertThat(evidence.status()).as("%s", evidence).isEqualTo(FaultStatus.FIRED);
      assertThat(evidence.details())
          .containsEntry("broker", SimulatedBroker.ADDRESS)
          .containsEntry("down", "20 ms")
          .containsKeys("stopped_at", "started_at", "down_for")
          .hasEntrySatisfying(
              "request_failed_while_down", v -> assertThat(v).startsWith("ConnectException"));
      assertThat(evidence.proofs())
          .anySatisfy(p -> assertThat(p).contains("while the broker was down", "failed"))
          .anySatisfy(
              p -> assertThat(p).contains("answered again: topic " + SimulatedBroker.TOPIC));
      assertThat(pipeline.broker().brokerUp()).isTrue();
      assertThat(broker(pipeline).observations())
          .extracting(LinkageRecord::label)
          .contains("broker-restarted");
      assertThat(recovery.recovered()).isTrue();
    }
  }

  @Test
  void aBrokerThatStillAnswersWhileDownRefutesTheRestart() throws Exception {
    SimulatedPipeline pipeline = brokerPipeline();
    pipeline.broker().answersWhileDown();

    try (FaultHandle handle = inject(new BrokerRestartInjector(), pipeline, Map.of("down", "20"))) {
      FaultEvidence evidence = handle.awaitFired(WAIT);

      assertThat(evidence.status()).isEqualTo(FaultStatus.NOT_PROVEN);
      assertThat(evidence.reason())
          .contains("answered an offsets request while it was supposed to be down");
    }
  }

  @Test
  void aBrokerRestartInterruptedWhileDownStartsTheBrokerBeforeItThrows() {
    SimulatedPipeline pipeline = brokerPipeline();

    Thread.currentThread().interrupt();
    try {
      assertThatThrownBy(
              () -> inject(new BrokerRestartInjector(), pipeline, Map.of("down", "5000")))
          .isInstanceOf(InterruptedException.class);
    } finally {
      Thread.interrupted(); // whatever happened, leave this thread as it was
    }
    assertThat(pipeline.broker().brokerUp()).isTrue();
  }

  // helpers

  private void assertResumedOnce(SimulatedPipeline pipeline, FaultHandle closed) {
    assertThat(closed.evidence().details()).doesNotContainKey("healing_problem");
    assertThat(connector(pipeline).status()).isEqualTo("RUNNING");
    assertThat(pipeline.broker().connectorStarts()).as("resumed exactly once").isEqualTo(1);
  }

  private static long latestChangelogSnapshot(SimulatedPipeline pipeline) {
    List<SnapshotInfo> snapshots = pipeline.snapshots(SimulatedPipeline.CHANGELOG);
    return snapshots.isEmpty() ? -1 : snapshots.get(snapshots.size() - 1).snapshotId();
  }

  /** A condition of the simulation that may throw while it is read. */
  @FunctionalInterface
  private interface Condition {
    boolean holds() throws Exception;
  }

  private static void await(Condition condition, String what) throws Exception {
    long deadline = System.nanoTime() + WAIT.toNanos();
    while (!condition.holds()) {
      if (System.nanoTime() > deadline) {
        throw new TimeoutException("no " + what + " within " + WAIT);
      }
      Thread.sleep(1);
    }
  }

  private static SourceConnectorControl connector(SimulatedPipeline pipeline) {
    return pipeline.capability(SourceConnectorControl.class).orElseThrow();
  }

  private static BrokerControl broker(SimulatedPipeline pipeline) {
    return pipeline.capability(BrokerControl.class).orElseThrow();
  }

  private SimulatedPipeline brokerPipeline() {
    SimulatedPipeline pipeline = SimulatedPipeline.runningWithBroker();
    pipelines.add(pipeline);
    return pipeline;
  }

  private FaultHandle inject(
      FaultInjector injector, SimulatedPipeline pipeline, Map<String, String> parameters)
      throws Exception {
    return inject(injector, pipeline, new FaultPosition.Now(), parameters, WAIT);
  }

  private FaultHandle inject(
      FaultInjector injector,
      SimulatedPipeline pipeline,
      FaultPosition position,
      Map<String, String> parameters)
      throws Exception {
    return inject(injector, pipeline, position, parameters, WAIT);
  }

  private FaultHandle inject(
      FaultInjector injector,
      SimulatedPipeline pipeline,
      FaultPosition position,
      Map<String, String> parameters,
      Duration timeout)
      throws Exception {
    FaultSpec spec =
        new FaultSpec(FaultIds.of(1, injector.name()), injector.name(), position, parameters);
    return injector.inject(
        new FaultContext(pipeline, spec, Clock.systemUTC(), timeout, workDirectory));
  }
}
