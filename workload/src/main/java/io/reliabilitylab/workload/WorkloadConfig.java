package io.reliabilitylab.workload;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Objects;
import org.apiguardian.api.API;

/**
 * What a seeded workload looks like: its size, its seed, the key space and the mix of operations.
 * The same config always generates the same workload.
 *
 * <pre>{@code
 * WorkloadConfig config = WorkloadConfig.builder()
 *     .events(2_000)
 *     .seed(42)
 *     .hotKeys(10)
 *     .hotKeyShare(0.3)
 *     .build();
 * Workload workload = WorkloadGenerator.generate(config);
 * }</pre>
 *
 * @param events how many source changes to generate (a primary-key update counts as one change)
 * @param seed the seed of the generator; its low 32 bits also fill the {@code seed} column
 * @param keySpace how many distinct {@code order_id} values (1 to keySpace) the workload may use
 * @param initialRows how many rows the table holds before the first transaction (keys 1 to n)
 * @param hotKeys how many keys (the first ones inserted) are hot
 * @param hotKeyShare the share of changes, outside bursts, that target a hot key
 * @param burstProbability the chance that a transaction starts a burst
 * @param burstLength how many transactions a burst has: they follow each other within a millisecond
 *     and all target hot keys
 * @param maxChangesPerTransaction the most changes one transaction holds (uniform from 1)
 * @param sameKeyProbability the chance that a change inside a transaction targets the key the
 *     previous change of that transaction touched (updates of just-inserted rows, several changes
 *     to one key in one transaction, a delete and a re-insert in one transaction)
 * @param insertWeight the weight of inserts of never-used keys
 * @param updateWeight the weight of updates that keep the key
 * @param primaryKeyUpdateWeight the weight of updates that change {@code order_id}
 * @param deleteWeight the weight of deletes
 * @param reinsertWeight the weight of re-inserts of deleted keys
 * @param maxGapMillis the largest gap between two transactions outside bursts
 * @param startTime the commit time of the initial rows; transactions follow it; whole milliseconds,
 *     as the source column is {@code TIMESTAMP(3)}
 * @param firstEventId the event id of the first write; later writes count up from it
 */
@API(status = EXPERIMENTAL)
public record WorkloadConfig(
    int events,
    long seed,
    long keySpace,
    int initialRows,
    int hotKeys,
    double hotKeyShare,
    double burstProbability,
    int burstLength,
    int maxChangesPerTransaction,
    double sameKeyProbability,
    int insertWeight,
    int updateWeight,
    int primaryKeyUpdateWeight,
    int deleteWeight,
    int reinsertWeight,
    int maxGapMillis,
    Instant startTime,
    long firstEventId) {

  /** The default start time: 2026-01-01T00:00:00Z. */
  public static final Instant DEFAULT_START_TIME = Instant.parse("2026-01-01T00:00:00Z");

  public WorkloadConfig {
    Objects.requireNonNull(startTime, "startTime");
    atLeast("events", events, 0);
    atLeast("keySpace", keySpace, 1);
    atLeast("initialRows", initialRows, 0);
    atLeast("hotKeys", hotKeys, 0);
    share("hotKeyShare", hotKeyShare);
    share("burstProbability", burstProbability);
    atLeast("burstLength", burstLength, 1);
    atLeast("maxChangesPerTransaction", maxChangesPerTransaction, 1);
    share("sameKeyProbability", sameKeyProbability);
    atLeast("insertWeight", insertWeight, 0);
    atLeast("updateWeight", updateWeight, 0);
    atLeast("primaryKeyUpdateWeight", primaryKeyUpdateWeight, 0);
    atLeast("deleteWeight", deleteWeight, 0);
    atLeast("reinsertWeight", reinsertWeight, 0);
    atLeast("maxGapMillis", maxGapMillis, 2);
    atLeast("firstEventId", firstEventId, 1);
    if ((long) insertWeight + updateWeight + primaryKeyUpdateWeight + deleteWeight + reinsertWeight
        == 0) {
      throw new IllegalArgumentException(
          "All operation weights are 0: give at least one of insert, update, primaryKeyUpdate,"
              + " delete or reinsert a positive weight");
    }
    if (initialRows > keySpace) {
      throw new IllegalArgumentException(
          "initialRows ("
              + initialRows
              + ") exceeds keySpace ("
              + keySpace
              + "): raise keySpace or lower initialRows");
    }
    if (!startTime.truncatedTo(ChronoUnit.MILLIS).equals(startTime)) {
      throw new IllegalArgumentException(
          "startTime "
              + startTime
              + " has sub-millisecond digits, but the source column is TIMESTAMP(3): use whole"
              + " milliseconds");
    }
  }

  /** A builder with the defaults: 10,000 events, seed 0, a mixed workload. */
  public static Builder builder() {
    return new Builder();
  }

  /** The default workload of {@code events} changes from {@code seed}. */
  public static WorkloadConfig of(int events, long seed) {
    return builder().events(events).seed(seed).build();
  }

  /** A builder that starts from this config, to change one setting. */
  public Builder toBuilder() {
    return new Builder(this);
  }

  private static void atLeast(String name, long value, long min) {
    if (value < min) {
      throw new IllegalArgumentException(
          name + " must be at least " + min + ", got " + value + ": check the workload config");
    }
  }

  private static void share(String name, double value) {
    if (!(value >= 0.0 && value <= 1.0)) {
      throw new IllegalArgumentException(
          name + " is a probability between 0 and 1, got " + value + ": check the workload config");
    }
  }

  /** Builds a {@link WorkloadConfig}; every setting has a default. */
  @API(status = EXPERIMENTAL)
  public static final class Builder {
    private int events = 10_000;
    private long seed;
    private long keySpace = 1_000_000_000L;
    private int initialRows;
    private int hotKeys = 10;
    private double hotKeyShare = 0.2;
    private double burstProbability = 0.02;
    private int burstLength = 20;
    private int maxChangesPerTransaction = 5;
    private double sameKeyProbability = 0.3;
    private int insertWeight = 35;
    private int updateWeight = 40;
    private int primaryKeyUpdateWeight = 3;
    private int deleteWeight = 12;
    private int reinsertWeight = 10;
    private int maxGapMillis = 50;
    private Instant startTime = DEFAULT_START_TIME;
    private long firstEventId = 1;

    private Builder() {}

    private Builder(WorkloadConfig config) {
      events = config.events;
      seed = config.seed;
      keySpace = config.keySpace;
      initialRows = config.initialRows;
      hotKeys = config.hotKeys;
      hotKeyShare = config.hotKeyShare;
      burstProbability = config.burstProbability;
      burstLength = config.burstLength;
      maxChangesPerTransaction = config.maxChangesPerTransaction;
      sameKeyProbability = config.sameKeyProbability;
      insertWeight = config.insertWeight;
      updateWeight = config.updateWeight;
      primaryKeyUpdateWeight = config.primaryKeyUpdateWeight;
      deleteWeight = config.deleteWeight;
      reinsertWeight = config.reinsertWeight;
      maxGapMillis = config.maxGapMillis;
      startTime = config.startTime;
      firstEventId = config.firstEventId;
    }

    /** How many source changes to generate; default 10,000. */
    public Builder events(int events) {
      this.events = events;
      return this;
    }

    /** The generator's seed; default 0. */
    public Builder seed(long seed) {
      this.seed = seed;
      return this;
    }

    /** How many distinct order ids may be used; default 1,000,000,000 (practically unbounded). */
    public Builder keySpace(long keySpace) {
      this.keySpace = keySpace;
      return this;
    }

    /** Rows present before the first transaction; default 0. */
    public Builder initialRows(int initialRows) {
      this.initialRows = initialRows;
      return this;
    }

    /** How many keys are hot; default 10. */
    public Builder hotKeys(int hotKeys) {
      this.hotKeys = hotKeys;
      return this;
    }

    /** The share of changes outside bursts on hot keys; default 0.2. */
    public Builder hotKeyShare(double hotKeyShare) {
      this.hotKeyShare = hotKeyShare;
      return this;
    }

    /** The chance that a transaction starts a burst; default 0.02. */
    public Builder burstProbability(double burstProbability) {
      this.burstProbability = burstProbability;
      return this;
    }

    /** Transactions per burst; default 20. */
    public Builder burstLength(int burstLength) {
      this.burstLength = burstLength;
      return this;
    }

    /** The most changes per transaction; default 5. */
    public Builder maxChangesPerTransaction(int maxChangesPerTransaction) {
      this.maxChangesPerTransaction = maxChangesPerTransaction;
      return this;
    }

    /** The chance that a change repeats the previous change's key; default 0.3. */
    public Builder sameKeyProbability(double sameKeyProbability) {
      this.sameKeyProbability = sameKeyProbability;
      return this;
    }

    /**
     * The relative weights of the operations; defaults 35 / 40 / 3 / 12 / 10.
     *
     * @param insert inserts of never-used keys
     * @param update updates that keep the key
     * @param primaryKeyUpdate updates that change the key
     * @param delete deletes
     * @param reinsert re-inserts of deleted keys
     */
    public Builder operationWeights(
        int insert, int update, int primaryKeyUpdate, int delete, int reinsert) {
      this.insertWeight = insert;
      this.updateWeight = update;
      this.primaryKeyUpdateWeight = primaryKeyUpdate;
      this.deleteWeight = delete;
      this.reinsertWeight = reinsert;
      return this;
    }

    /** The largest gap between transactions outside bursts; default 50 ms. */
    public Builder maxGapMillis(int maxGapMillis) {
      this.maxGapMillis = maxGapMillis;
      return this;
    }

    /** The commit time of the initial rows; default {@link #DEFAULT_START_TIME}. */
    public Builder startTime(Instant startTime) {
      this.startTime = Objects.requireNonNull(startTime, "startTime");
      return this;
    }

    /** The first event id; default 1. A follow-up workload starts after the previous one's. */
    public Builder firstEventId(long firstEventId) {
      this.firstEventId = firstEventId;
      return this;
    }

    /**
     * The config; throws {@link IllegalArgumentException} naming a setting that is out of range.
     */
    public WorkloadConfig build() {
      return new WorkloadConfig(
          events,
          seed,
          keySpace,
          initialRows,
          hotKeys,
          hotKeyShare,
          burstProbability,
          burstLength,
          maxChangesPerTransaction,
          sameKeyProbability,
          insertWeight,
          updateWeight,
          primaryKeyUpdateWeight,
          deleteWeight,
          reinsertWeight,
          maxGapMillis,
          startTime,
          firstEventId);
    }
  }
}
