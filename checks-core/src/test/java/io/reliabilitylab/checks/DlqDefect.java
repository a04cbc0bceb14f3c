package io.reliabilitylab.checks;

import io.reliabilitylab.spi.check.DlqRecord;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * One way dead-letter records break, applied to the record at {@code pick} of a faithful list. Each
 * names the count the check must raise and the sample kind it must report.
 */
public enum DlqDefect {
  /** One original quarantined twice (a redelivered poison message sent to the DLQ again). */
  DUPLICATE_ORIGINAL("duplicate_originals", "duplicate_original") {
    @Override
    List<DlqRecord> apply(List<DlqRecord> records, int pick) {
      List<DlqRecord> copy = new ArrayList<>(records);
      long next = records.stream().mapToLong(DlqRecord::offset).max().orElse(-1) + 1;
      copy.add(BrokerFixture.requarantined(records.get(pick % records.size()), next));
      return copy;
    }
  },

  BLANK_ERROR_TYPE("missing_metadata", "missing_metadata") {
    @Override
    DlqRecord change(DlqRecord r) {
      return with(r, " ", r.errorMessage(), r.quarantinedAt(), r.dlqSchemaVersion());
    }
  },

  MISSING_ERROR_MESSAGE("missing_metadata", "missing_metadata") {
    @Override
    DlqRecord change(DlqRecord r) {
      return with(r, r.errorType(), null, r.quarantinedAt(), r.dlqSchemaVersion());
    }
  },

  MISSING_QUARANTINE_TIME("missing_metadata", "missing_metadata") {
    @Override
    DlqRecord change(DlqRecord r) {
      return with(r, r.errorType(), r.errorMessage(), null, r.dlqSchemaVersion());
    }
  },

  SCHEMA_VERSION_ZERO("missing_metadata", "missing_metadata") {
    @Override
    DlqRecord change(DlqRecord r) {
      return with(r, r.errorType(), r.errorMessage(), r.quarantinedAt(), 0);
    }
  },

  /** An upper-case digest: not the lower-case hex the record format promises. */
  UPPER_CASE_SHA256("missing_metadata", "missing_metadata") {
    @Override
    DlqRecord change(DlqRecord r) {
      String upper = r.originalValueSha256().toUpperCase(Locale.ROOT);
      // a digest of digits only has no case: force one upper-case letter
      return digest(
          r,
          upper.equals(r.originalValueSha256()) ? "A" + upper.substring(1) : upper,
          r.originalValueLength());
    }
  },

  /** A digest one character short. */
  SHORT_SHA256("missing_metadata", "missing_metadata") {
    @Override
    DlqRecord change(DlqRecord r) {
      return digest(r, r.originalValueSha256().substring(1), r.originalValueLength());
    }
  },

  NEGATIVE_LENGTH("missing_metadata", "missing_metadata") {
    @Override
    DlqRecord change(DlqRecord r) {
      return digest(r, r.originalValueSha256(), -1);
    }
  },

  /** The DLQ record's bytes do not decode to the original value. */
  BYTES_NOT_PRESERVED("bytes_not_preserved", "bytes_not_preserved") {
    @Override
    DlqRecord change(DlqRecord r) {
      return new DlqRecord(
          r.topic(),
          r.partition(),
          r.offset(),
          r.originalTopic(),
          r.originalPartition(),
          r.originalOffset(),
          r.originalTimestampMs(),
          r.errorType(),
          r.errorMessage(),
          r.quarantinedAt(),
          r.dlqSchemaVersion(),
          r.originalValueSha256(),
          r.originalValueLength(),
          false);
    }
  };

  private final String count;
  private final String kind;

  DlqDefect(String count, String kind) {
    this.count = count;
    this.kind = kind;
  }

  /** The count this defect raises to at least 1. */
  public String count() {
    return count;
  }

  /** The sample kind the check must report. */
  public String kind() {
    return kind;
  }

  /** The records with this defect in the record at {@code pick}, or added after it. */
  List<DlqRecord> apply(List<DlqRecord> records, int pick) {
    List<DlqRecord> copy = new ArrayList<>(records);
    int index = pick % records.size();
    copy.set(index, change(copy.get(index)));
    return copy;
  }

  /** The records with this defect in the first record. */
  public List<DlqRecord> apply(List<DlqRecord> records) {
    return apply(records, 0);
  }

  DlqRecord change(DlqRecord record) {
    throw new UnsupportedOperationException(name() + " changes the list, not one record");
  }

  private static DlqRecord with(
      DlqRecord r,
      @Nullable String errorType,
      @Nullable String errorMessage,
      @Nullable Instant quarantinedAt,
      int schemaVersion) {
    return new DlqRecord(
        r.topic(),
        r.partition(),
        r.offset(),
        r.originalTopic(),
        r.originalPartition(),
        r.originalOffset(),
        r.originalTimestampMs(),
        errorType,
        errorMessage,
        quarantinedAt,
        schemaVersion,
        r.originalValueSha256(),
        r.originalValueLength(),
        r.originalBytesPreserved());
  }

  private static DlqRecord digest(DlqRecord r, String sha256, long length) {
    return new DlqRecord(
        r.topic(),
        r.partition(),
        r.offset(),
        r.originalTopic(),
        r.originalPartition(),
        r.originalOffset(),
        r.originalTimestampMs(),
        r.errorType(),
        r.errorMessage(),
        r.quarantinedAt(),
        r.dlqSchemaVersion(),
        sha256,
        length,
        r.originalBytesPreserved());
  }
}
