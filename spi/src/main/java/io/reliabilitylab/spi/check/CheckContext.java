package io.reliabilitylab.spi.check;

import static org.apiguardian.api.API.Status.STABLE;

import io.reliabilitylab.spi.data.Changelog;
import io.reliabilitylab.spi.data.CommitConsistency;
import io.reliabilitylab.spi.data.DeliverySemantics;
import io.reliabilitylab.spi.data.RowSet;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * Everything a check may read. Each input is optional: a check that needs one that is absent
 * answers inconclusive.
 *
 * <pre>{@code
 * CheckContext context = CheckContext.builder(DeliverySemantics.EXACTLY_ONCE)
 *     .expectedCurrent(sourceRows)
 *     .actualCurrent(icebergRows)
 *     .expectedChangelog(oracleChangelog)
 *     .actualChangelog(icebergChangelog)
 *     .workDirectory(tempDir)
 *     .build();
 * }</pre>
 *
 * @param semantics the delivery guarantee in force, which decides how duplicates are judged
 * @param expectedCurrent the rows the current table must hold (the source table, or the oracle)
 * @param actualCurrent the current table as the pipeline wrote it (Iceberg at a snapshot)
 * @param expectedChangelog the change envelopes the changelog must hold (the oracle's)
 * @param actualChangelog the changelog table as the pipeline wrote it
 * @param linkage Kafka offset, Flink checkpoint and Iceberg snapshot records, in time order
 * @param dlqRecords the records found in the dead-letter topic
 * @param checkpointId the checkpoint at which the actual tables were read, when known
 * @param workDirectory where a check may spill to disk (bounded-memory sorting)
 * @param maxRowsInMemory how many rows a check may hold in memory before it spills
 * @param sampleLimit the cap on evidence samples per check
 * @param commitConsistency what the pipeline claims a reader sees between commits ({@link
 *     CommitConsistency#PER_KEY} unless it claims more)
 */
@API(status = STABLE)
public record CheckContext(
    DeliverySemantics semantics,
    Optional<RowSet> expectedCurrent,
    Optional<RowSet> actualCurrent,
    Optional<Changelog> expectedChangelog,
    Optional<Changelog> actualChangelog,
    List<LinkageRecord> linkage,
    List<DlqRecord> dlqRecords,
    Optional<Long> checkpointId,
    Path workDirectory,
    int maxRowsInMemory,
    int sampleLimit,
    CommitConsistency commitConsistency) {

  public CheckContext {
    Objects.requireNonNull(commitConsistency, "commitConsistency");
    Objects.requireNonNull(semantics, "semantics");
    Objects.requireNonNull(expectedCurrent, "expectedCurrent");
    Objects.requireNonNull(actualCurrent, "actualCurrent");
    Objects.requireNonNull(expectedChangelog, "expectedChangelog");
    Objects.requireNonNull(actualChangelog, "actualChangelog");
    linkage = List.copyOf(linkage);
    dlqRecords = List.copyOf(dlqRecords);
    Objects.requireNonNull(checkpointId, "checkpointId");
    Objects.requireNonNull(workDirectory, "workDirectory");
    if (maxRowsInMemory < 1) {
      throw new IllegalArgumentException("maxRowsInMemory must be at least 1");
    }
    if (sampleLimit < 0) {
      throw new IllegalArgumentException("sampleLimit must be >= 0");
    }
  }

  /** A context that claims no more than {@link CommitConsistency#PER_KEY}. */
  public CheckContext(
      DeliverySemantics semantics,
      Optional<RowSet> expectedCurrent,
      Optional<RowSet> actualCurrent,
      Optional<Changelog> expectedChangelog,
      Optional<Changelog> actualChangelog,
      List<LinkageRecord> linkage,
      List<DlqRecord> dlqRecords,
      Optional<Long> checkpointId,
      Path workDirectory,
      int maxRowsInMemory,
      int sampleLimit) {
    this(
        semantics,
        expectedCurrent,
        actualCurrent,
        expectedChangelog,
        actualChangelog,
        linkage,
        dlqRecords,
        checkpointId,
        workDirectory,
        maxRowsInMemory,
        sampleLimit,
        CommitConsistency.PER_KEY);
  }

  /** A builder; only the semantics are required. */
  public static Builder builder(DeliverySemantics semantics) {
    return new Builder(semantics);
  }

  /** A builder that starts from this context, to change one input. */
  public Builder toBuilder() {
    Builder builder = new Builder(semantics);
    builder.expectedCurrent = expectedCurrent.orElse(null);
    builder.actualCurrent = actualCurrent.orElse(null);
    builder.expectedChangelog = expectedChangelog.orElse(null);
    builder.actualChangelog = actualChangelog.orElse(null);
    builder.linkage.addAll(linkage);
    builder.dlqRecords.addAll(dlqRecords);
    builder.checkpointId = checkpointId.orElse(null);
    builder.workDirectory = workDirectory;
    builder.maxRowsInMemory = maxRowsInMemory;
    builder.sampleLimit = sampleLimit;
    builder.commitConsistency = commitConsistency;
    return builder;
  }

  /** Builds a {@link CheckContext}. */
  public static final class Builder {
    private DeliverySemantics semantics;
    private @Nullable RowSet expectedCurrent;
    private @Nullable RowSet actualCurrent;
    private @Nullable Changelog expectedChangelog;
    private @Nullable Changelog actualChangelog;
    private final List<LinkageRecord> linkage = new ArrayList<>();
    private final List<DlqRecord> dlqRecords = new ArrayList<>();
    private @Nullable Long checkpointId;
    private Path workDirectory = Path.of(System.getProperty("java.io.tmpdir"));
    private int maxRowsInMemory = 250_000;
    private int sampleLimit = 20;
    private CommitConsistency commitConsistency = CommitConsistency.PER_KEY;

    private Builder(DeliverySemantics semantics) {
      this.semantics = Objects.requireNonNull(semantics, "semantics");
    }

    public Builder semantics(DeliverySemantics value) {
      this.semantics = Objects.requireNonNull(value, "semantics");
      return this;
    }

    public Builder expectedCurrent(@Nullable RowSet value) {
      this.expectedCurrent = value;
      return this;
    }

    public Builder actualCurrent(@Nullable RowSet value) {
      this.actualCurrent = value;
      return this;
    }

    public Builder expectedChangelog(@Nullable Changelog value) {
      this.expectedChangelog = value;
      return this;
    }

    public Builder actualChangelog(@Nullable Changelog value) {
      this.actualChangelog = value;
      return this;
    }

    public Builder linkage(List<LinkageRecord> value) {
      linkage.clear();
      linkage.addAll(value);
      return this;
    }

    public Builder dlqRecords(List<DlqRecord> value) {
      dlqRecords.clear();
      dlqRecords.addAll(value);
      return this;
    }

    public Builder checkpointId(@Nullable Long value) {
      this.checkpointId = value;
      return this;
    }

    public Builder workDirectory(Path value) {
      this.workDirectory = Objects.requireNonNull(value, "workDirectory");
      return this;
    }

    public Builder maxRowsInMemory(int value) {
      this.maxRowsInMemory = value;
      return this;
    }

    public Builder sampleLimit(int value) {
      this.sampleLimit = value;
      return this;
    }

    public Builder commitConsistency(CommitConsistency value) {
      this.commitConsistency = Objects.requireNonNull(value, "commitConsistency");
      return this;
    }

    public CheckContext build() {
      return new CheckContext(
          semantics,
          Optional.ofNullable(expectedCurrent),
          Optional.ofNullable(actualCurrent),
          Optional.ofNullable(expectedChangelog),
          Optional.ofNullable(actualChangelog),
          linkage,
          dlqRecords,
          Optional.ofNullable(checkpointId),
          workDirectory,
          maxRowsInMemory,
          sampleLimit,
          commitConsistency);
    }
  }
}
