package io.reliabilitylab.testkit.simulated;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.reliabilitylab.spi.check.DlqRecord;
import io.reliabilitylab.spi.check.LinkageRecord;
import io.reliabilitylab.spi.pipeline.BrokerControl;
import io.reliabilitylab.spi.pipeline.CheckpointInfo;
import io.reliabilitylab.spi.pipeline.DeadLetterQueue;
import io.reliabilitylab.spi.pipeline.PipelineCapability;
import io.reliabilitylab.spi.pipeline.ReplayDeduplication;
import io.reliabilitylab.spi.pipeline.SnapshotInfo;
import io.reliabilitylab.spi.pipeline.SourceConnectorControl;
import java.net.ConnectException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * The broker path of a {@link SimulatedPipeline} in miniature: a source connector that publishes
 * change records to a one-partition topic on the pipeline's tick, a job that consumes them,
 * deduplicates replays and quarantines corrupted records in a dead-letter topic, a repair replay,
 * and a broker that can be stopped. It offers {@link BrokerControl}, {@link
 * SourceConnectorControl}, {@link DeadLetterQueue} and {@link ReplayDeduplication} through the
 * pipeline's {@code capability(...)}. Every method runs under the pipeline's monitor, so the
 * simulation moves one tick at a time. Knobs make it misbehave, so that a broker fault's proof can
 * be shown to refuse what it must not accept.
 *
 * <pre>{@code
 * try (SimulatedPipeline pipeline = SimulatedPipeline.runningWithBroker()) {
 *   pipeline.broker().dedupPassesEveryOtherReplay();
 *   FaultHandle handle = new MyBrokerFault()
 *       .inject(new FaultContext(pipeline, spec, Clock.systemUTC(), Duration.ofSeconds(10), dir));
 *   assertThat(handle.awaitFired(Duration.ofSeconds(10)).status())
 *       .isEqualTo(FaultStatus.NOT_PROVEN);
 * }
 * }</pre>
 */
@API(status = EXPERIMENTAL)
public final class SimulatedBroker {

  /** The change topic the connector publishes to (one partition). */
  public static final String TOPIC = "lab.inventory.orders";

  /** The dead-letter topic the job quarantines corrupted records in. */
  public static final String DLQ_TOPIC = TOPIC + ".dlq";

  /** The job's consumer group. */
  public static final String CONSUMER_GROUP = "srl-broker-job";

  /** The broker's address, as {@link BrokerControl#address()} reports it. */
  public static final String ADDRESS = "localhost:19092";

  /** Records the connector publishes per tick. */
  public static final int RECORDS_PER_TICK = 5;

  static final String RUNNING = "RUNNING";
  static final String STARTING = "STARTING";
  static final String STOPPED = "STOPPED";

  /** One record in the topic: the change at a source position, as published. */
  record TopicRecord(
      long offset, long position, long timestampMs, boolean corrupted, byte[] value) {}

  /** A corruption armed on the k-th next record. */
  record Corruption(long remaining, String faultId) {}

  private final SimulatedPipeline pipeline;
  final List<TopicRecord> topic = new ArrayList<>();
  final List<DlqRecord> dlq = new ArrayList<>();
  final List<DeadLetterQueue.Repair> repairs = new ArrayList<>();
  private final List<LinkageRecord> observations = new ArrayList<>();
  final Map<String, SourceConnectorControl.CorruptedRecord> corrupted = new HashMap<>();
  final Map<String, Long> marks = new HashMap<>();
  // the job's dedup state: event ids it has passed on
  private final Set<Long> seen = new HashSet<>();
  // event ids passed on since the last commit, and the changelog snapshot that committed each
  private final List<Long> uncommitted = new ArrayList<>();
  private final Map<Long, Long> committedIn = new HashMap<>();

  private final SimulatedConnector connector;
  private final Broker broker = new Broker();
  private final SimulatedDeadLetters deadLetters;
  private final Dedup dedup = new Dedup();

  String connectorStatus = RUNNING;
  private boolean brokerUp = true;
  long lastPublished; // the source position the connector published last
  long highestBeforeRewind = -1;
  long published;
  long republished;
  private long consumed; // the job's position in the topic
  private long committedOffset;
  private long droppedReplays;
  private long seenReplays;
  private long replaysRead;
  long connectorStarts;
  @Nullable Corruption armed;

  // misbehaviour
  private boolean quarantineTwice;
  private boolean quarantineAgainAfterRepair;
  private boolean dlqAltersBytes;
  private boolean failJobOnPoison;
  private boolean dropUndecodable;
  boolean repairFails;
  private boolean dedupPassesEveryOtherReplay;
  private boolean dedupCountsNothing;
  private boolean failJobOnReplay;
  private boolean answersWhileDown;
  boolean rewindFails;
  Duration startTakes = Duration.ZERO;

  SimulatedBroker(SimulatedPipeline pipeline) {
    this.pipeline = pipeline;
    this.connector = new SimulatedConnector(pipeline, this);
    this.deadLetters = new SimulatedDeadLetters(pipeline, this);
  }

  /** The capabilities this broker path offers. */
  static Set<Class<? extends PipelineCapability>> capabilities() {
    return Set.of(
        BrokerControl.class,
        SourceConnectorControl.class,
        DeadLetterQueue.class,
        ReplayDeduplication.class);
  }

  /** The capability of a type, or empty when the broker path does not offer it. */
  <T extends PipelineCapability> Optional<T> capability(Class<T> type) {
    if (type == BrokerControl.class) {
      return Optional.of(type.cast(broker));
    }
    if (type == SourceConnectorControl.class) {
      return Optional.of(type.cast(connector));
    }
    if (type == DeadLetterQueue.class) {
      return Optional.of(type.cast(deadLetters));
    }
    if (type == ReplayDeduplication.class) {
      return Optional.of(type.cast(dedup));
    }
    return Optional.empty();
  }

  // misbehaviour knobs

  /** The job writes two dead-letter records for one corrupted record, at once. */
  public SimulatedBroker quarantineTwice() {
    synchronized (pipeline) {
      quarantineTwice = true;
      return this;
    }
  }

  /** The job quarantines the corrupted record a second time, when it reads the repair. */
  public SimulatedBroker quarantineAgainAfterRepair() {
    synchronized (pipeline) {
      quarantineAgainAfterRepair = true;
      return this;
    }
  }

  /** The dead-letter record keeps other bytes than the corrupted record's. */
  public SimulatedBroker dlqAltersBytes() {
    synchronized (pipeline) {
      dlqAltersBytes = true;
      return this;
    }
  }

  /** A corrupted record fails the job (one restart) before it is quarantined. */
  public SimulatedBroker failJobOnPoison() {
    synchronized (pipeline) {
      failJobOnPoison = true;
      return this;
    }
  }

  /** The job drops a corrupted record without quarantining it (a format ignoring parse errors). */
  public SimulatedBroker dropUndecodable() {
    synchronized (pipeline) {
      dropUndecodable = true;
      return this;
    }
  }

  /** The repair cannot decode the quarantined record. */
  public SimulatedBroker repairFails() {
    synchronized (pipeline) {
      repairFails = true;
      return this;
    }
  }

  /**
   * The job's dedup counts nothing: a deduplication without counters, or one the redelivered
   * records never reach.
   */
  public SimulatedBroker dedupCountsNothing() {
    synchronized (pipeline) {
      dedupCountsNothing = true;
    }
    return this;
  }

  /** The dedup lets every other replay through instead of dropping it. */
  public SimulatedBroker dedupPassesEveryOtherReplay() {
    synchronized (pipeline) {
      dedupPassesEveryOtherReplay = true;
      return this;
    }
  }

  /** The first replay the job reads fails it (one restart), which resets its dedup counter. */
  public SimulatedBroker failJobOnReplay() {
    synchronized (pipeline) {
      failJobOnReplay = true;
      return this;
    }
  }

  /** Offsets can still be observed while the broker is stopped. */
  public SimulatedBroker answersWhileDown() {
    synchronized (pipeline) {
      answersWhileDown = true;
      return this;
    }
  }

  /** A connector start shows {@code STARTING} this long, and ignores interrupts meanwhile. */
  public SimulatedBroker connectorStartTakes(Duration duration) {
    synchronized (pipeline) {
      startTakes = duration;
      return this;
    }
  }

  /** A rewind stops the connector, then fails to put the old offsets back. */
  public SimulatedBroker rewindFails() {
    synchronized (pipeline) {
      rewindFails = true;
      return this;
    }
  }

  // what the tests look at

  /** How often the connector was started (a rewind counts), to catch a double start. */
  public long connectorStarts() {
    synchronized (pipeline) {
      return connectorStarts;
    }
  }

  /** Whether the broker is up (not stopped through BrokerControl). */
  public boolean brokerUp() {
    synchronized (pipeline) {
      return brokerUp;
    }
  }

  /** Whether the changelog snapshot {@code snapshotId} holds the event. */
  public boolean changelogContains(long snapshotId, long eventId) {
    synchronized (pipeline) {
      Long committed = committedIn.get(eventId);
      return committed != null && committed <= snapshotId;
    }
  }

  // the simulation, driven by the pipeline's tick under its monitor

  /** The connector publishes a few change records, if it runs and the broker is up. */
  void publishTick() {
    if (!RUNNING.equals(connectorStatus) || !brokerUp) {
      return;
    }
    for (int i = 0; i < RECORDS_PER_TICK; i++) {
      long position = ++lastPublished;
      published++;
      if (position <= highestBeforeRewind) {
        republished++;
      }
      Corruption corruption = armed;
      if (corruption != null && corruption.remaining() <= 1) {
        armed = null;
        publishCorrupted(position, corruption.faultId());
        connectorStatus = STOPPED; // the rest of the batch waits for the next start
        return;
      }
      if (corruption != null) {
        armed = new Corruption(corruption.remaining() - 1, corruption.faultId());
      }
      append(position, false, json(position));
    }
  }

  private void publishCorrupted(long position, String faultId) {
    byte[] original = json(position);
    byte[] value = new byte[original.length + 2];
    value[0] = (byte) 0xC3;
    value[1] = (byte) 0x28;
    System.arraycopy(original, 0, value, 2, original.length);
    TopicRecord record = append(position, true, value);
    corrupted.put(
        faultId,
        new SourceConnectorControl.CorruptedRecord(
            TOPIC,
            0,
            record.offset(),
            record.timestampMs(),
            key(position),
            sha256(value),
            value.length,
            position,
            Instant.now()));
  }

  TopicRecord append(long position, boolean isCorrupted, byte[] value) {
    TopicRecord record =
        new TopicRecord(topic.size(), position, System.currentTimeMillis(), isCorrupted, value);
    topic.add(record);
    return record;
  }

  /** The job reads what the topic holds beyond its position, if the broker is up. */
  void consumeTick() {
    if (!brokerUp) {
      return;
    }
    while (consumed < topic.size()) {
      TopicRecord record = topic.get((int) consumed);
      consumed++;
      if (record.corrupted()) {
        if (failJobOnPoison) {
          failJobOnPoison = false;
          pipeline.failJob("a poison record failed the job at " + TOPIC + "/0@" + record.offset());
        }
        if (dropUndecodable) {
          continue;
        }
        quarantine(record);
        if (quarantineTwice) {
          quarantine(record);
        }
        continue;
      }
      long eventId = record.position();
      if (!seen.add(eventId)) {
        seenReplays++;
        if (failJobOnReplay) {
          failJobOnReplay = false;
          pipeline.failJob(
              "a replayed record failed the job at " + TOPIC + "/0@" + record.offset());
          return;
        }
        if (dedupPassesEveryOtherReplay && ++replaysRead % 2 == 1) {
          uncommitted.add(eventId); // a duplicate the dedup let through
        } else {
          droppedReplays++;
        }
        continue;
      }
      uncommitted.add(eventId);
      if (quarantineAgainAfterRepair && isRepair(record)) {
        topic.stream()
            .filter(TopicRecord::corrupted)
            .filter(c -> c.position() == record.position())
            .findFirst()
            .ifPresent(this::quarantine);
      }
    }
  }

  private boolean isRepair(TopicRecord record) {
    return repairs.stream().anyMatch(r -> r.offset() == record.offset() && r.repaired());
  }

  private void quarantine(TopicRecord record) {
    byte[] kept = dlqAltersBytes ? json(record.position()) : record.value();
    dlq.add(
        new DlqRecord(
            DLQ_TOPIC,
            0,
            dlq.size(),
            TOPIC,
            0,
            record.offset(),
            record.timestampMs(),
            "io.reliabilitylab.pipeline.broker.wire.InvalidChangeRecordException",
            "the value is not valid UTF-8",
            Instant.now(),
            1,
            sha256(kept),
            kept.length,
            true));
  }

  /** The job failed: Flink resets operator counters when the job restarts. */
  void jobRestarted() {
    droppedReplays = 0;
    seenReplays = 0;
  }

  /** The job's sinks committed a checkpoint: the events passed on so far are in that snapshot. */
  void committed(long changelogSnapshotId) {
    for (long eventId : uncommitted) {
      committedIn.putIfAbsent(eventId, changelogSnapshotId);
    }
    uncommitted.clear();
    committedOffset = consumed;
  }

  static byte[] json(long position) {
    return ("{\"op\":\"u\",\"id\":" + position + ",\"status\":\"PAID\"}")
        .getBytes(StandardCharsets.UTF_8);
  }

  static String key(long position) {
    return "{\"id\":" + position + "}";
  }

  /** The SHA-256 of {@code bytes} in hex, as the dead-letter records carry it. */
  public static String sha256(byte[] bytes) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JDK has SHA-256", e);
    }
  }

  // the capabilities; each is a view on the state above, under the pipeline's monitor

  private final class Broker implements BrokerControl {

    @Override
    public void stop() {
      synchronized (pipeline) {
        brokerUp = false;
      }
    }

    @Override
    public void start() {
      synchronized (pipeline) {
        brokerUp = true;
      }
    }

    @Override
    public LinkageRecord observeLinkage(String label) throws Exception {
      synchronized (pipeline) {
        requireUp();
        if ("final".equals(label)) {
          // bounded, like the real one: a commit still in flight is not a lag
          long deadline = System.nanoTime() + Duration.ofSeconds(2).toNanos();
          while (committedOffset < topic.size() && System.nanoTime() < deadline) {
            pipeline.wait(5);
          }
        }
        Map<String, LinkageRecord.SnapshotRef> snapshots = new LinkedHashMap<>();
        for (String table : List.of(SimulatedPipeline.CURRENT, SimulatedPipeline.CHANGELOG)) {
          List<SnapshotInfo> all = pipeline.snapshots(table);
          if (!all.isEmpty()) {
            SnapshotInfo latest = all.get(all.size() - 1);
            snapshots.put(
                table,
                new LinkageRecord.SnapshotRef(
                    latest.snapshotId(), latest.flinkJobId(), latest.committedCheckpointId()));
          }
        }
        CheckpointInfo latest =
            pipeline.checkpoints().stream().reduce((first, second) -> second).orElse(null);
        LinkageRecord record =
            new LinkageRecord(
                label,
                Instant.now(),
                TOPIC,
                CONSUMER_GROUP,
                List.of(new LinkageRecord.PartitionOffset(0, committedOffset, topic.size())),
                latest == null
                    ? null
                    : new LinkageRecord.CheckpointRef(
                        latest.id(), latest.status(), latest.externalPath()),
                snapshots);
        observations.add(record);
        return record;
      }
    }

    @Override
    public List<LinkageRecord> observations() {
      synchronized (pipeline) {
        return List.copyOf(observations);
      }
    }

    @Override
    public String address() {
      return ADDRESS;
    }
  }

  void requireUp() throws ConnectException {
    if (!brokerUp && !answersWhileDown) {
      throw new ConnectException("Connection to node 1 (" + ADDRESS + ") could not be established");
    }
  }

  private final class Dedup implements ReplayDeduplication {
    @Override
    public long droppedReplays() {
      synchronized (pipeline) {
        return dedupCountsNothing ? 0 : droppedReplays;
      }
    }

    @Override
    public long seenReplays() {
      synchronized (pipeline) {
        return dedupCountsNothing ? 0 : seenReplays;
      }
    }
  }
}
