package io.reliabilitylab.checks;

import static org.apiguardian.api.API.Status.STABLE;

import com.google.auto.service.AutoService;
import io.reliabilitylab.spi.check.CheckContext;
import io.reliabilitylab.spi.check.CheckResult;
import io.reliabilitylab.spi.check.DlqRecord;
import io.reliabilitylab.spi.check.Evidence;
import io.reliabilitylab.spi.check.EvidenceSample;
import io.reliabilitylab.spi.check.LinkageRecord;
import io.reliabilitylab.spi.check.ReconciliationCheck;
import io.reliabilitylab.spi.pipeline.DeadLetterQueue;
import io.reliabilitylab.spi.pipeline.PipelineCapability;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.SortedMap;
import java.util.StringJoiner;
import java.util.TreeMap;
import java.util.regex.Pattern;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * Checks that every record in the dead-letter topic quarantines a different original, carries its
 * error metadata and keeps the original bytes for repair.
 *
 * <p><b>Compares</b> the {@link CheckContext#dlqRecords() dead-letter records} with each other,
 * grouped by the original (topic, partition, offset) they quarantine, and each with the metadata a
 * quarantined record must carry: a non-blank error type and error message, a quarantine time, a DLQ
 * schema version of at least 1, the original value's SHA-256 as 64 lower-case hex digits and a
 * length of at least 0; and its bytes must decode to exactly the original value. Counts: {@code
 * records}, {@code distinct_originals}, {@code duplicate_originals} (originals quarantined more
 * than once), {@code missing_metadata} (records lacking any of that metadata) and {@code
 * bytes_not_preserved}. Samples of kind {@code duplicate_original}, {@code missing_metadata} (with
 * the fields at fault) and {@code bytes_not_preserved} name the dead-letter records by topic /
 * partition / offset, the original by topic / partition / offset, and the original value's SHA-256
 * and length. They never carry the error message: deserializers often quote the payload in it, and
 * a poison payload must not reach the run record.
 *
 * <p><b>Passes</b> iff {@code duplicate_originals}, {@code missing_metadata} and {@code
 * bytes_not_preserved} are all 0. An empty dead-letter topic passes (fact {@code
 * dead_letter_records: 0}: nothing was quarantined) when the {@link CheckContext#linkage() linkage}
 * shows a broker was observed, that is a linkage record with a topic: the context cannot say
 * otherwise that the dead-letter topic was read. Whether a poison message that should have been
 * quarantined was is for the fault's evidence and the snapshot diff to show; this check judges what
 * was quarantined. The delivery semantics do not change the verdict: a redelivered poison message
 * must still be quarantined once.
 *
 * <p><b>Inconclusive</b> when there are no dead-letter records and no linkage record with a topic:
 * nothing shows that a dead-letter topic was read at all.
 */
@API(status = STABLE)
@AutoService(ReconciliationCheck.class)
public final class DlqIntegrityCheck implements ReconciliationCheck {

  /** The name this check is selected by. */
  public static final String NAME = "dlq-integrity";

  private static final Pattern SHA256_HEX = Pattern.compile("[0-9a-f]{64}");

  /** An error type shown in evidence only if it looks like a class name or an error code. */
  private static final Pattern ERROR_TYPE = Pattern.compile("[A-Za-z0-9_.$:-]{1,200}");

  private static final Comparator<Original> BY_ORIGINAL =
      Comparator.comparing(Original::topic)
          .thenComparingInt(Original::partition)
          .thenComparingLong(Original::offset);

  public DlqIntegrityCheck() {}

  /** Runs only on a pipeline with a dead-letter topic: its inputs come from there. */
  @Override
  public Set<Class<? extends PipelineCapability>> requiredCapabilities() {
    return Set.of(DeadLetterQueue.class);
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public String description() {
    return "Checks each dead-letter record quarantines a different original, carries its error"
        + " metadata and preserves the original bytes (evidence by SHA-256, never the payload)";
  }

  @Override
  public CheckResult check(CheckContext context) {
    Objects.requireNonNull(context, "context");
    List<DlqRecord> records = context.dlqRecords();
    if (records.isEmpty()) {
      return emptyTopic(context);
    }
    try {
      return audit(records, context.sampleLimit());
    } catch (RuntimeException e) {
      return Outcomes.unreadable(NAME, e);
    }
  }

  private static CheckResult emptyTopic(CheckContext context) {
    // Without an SPI signal that the dead-letter topic was read, a linkage record with a topic is
    // the proof that this run had a broker to read it from.
    String topic =
        context.linkage().stream()
            .map(LinkageRecord::topic)
            .filter(t -> !t.isBlank())
            .findFirst()
            .orElse(null);
    if (topic == null) {
      return CheckResult.inconclusive(
          NAME,
          "inconclusive: no dead-letter records (dlqRecords) and no linkage record with a topic"
              + " were given, so nothing shows that a dead-letter topic was read",
          Evidence.builder().fact("missing_input", "dlqRecords").build());
    }
    Evidence evidence =
        Evidence.builder(context.sampleLimit())
            .fact("dead_letter_records", "0")
            .fact("source_topic", topic)
            .count("records", 0)
            .count("distinct_originals", 0)
            .count("duplicate_originals", 0)
            .count("missing_metadata", 0)
            .count("bytes_not_preserved", 0)
            .build();
    return CheckResult.passed(
        NAME, "the dead-letter topic of " + topic + " is empty: nothing was quarantined", evidence);
  }

  private record Original(String topic, int partition, long offset) {
    @Override
    public String toString() {
      return topic + "/" + partition + "@" + offset;
    }
  }

  private static CheckResult audit(List<DlqRecord> records, int sampleLimit) {
    Evidence.Builder evidence = Evidence.builder(sampleLimit);
    SortedMap<Original, List<DlqRecord>> byOriginal = new TreeMap<>(BY_ORIGINAL);
    for (DlqRecord record : records) {
      byOriginal
          .computeIfAbsent(
              new Original(
                  record.originalTopic(), record.originalPartition(), record.originalOffset()),
              original -> new ArrayList<>())
          .add(record);
    }
    long duplicateOriginals = 0;
    for (Map.Entry<Original, List<DlqRecord>> entry : byOriginal.entrySet()) {
      List<DlqRecord> copies = entry.getValue();
      if (copies.size() > 1) {
        duplicateOriginals++;
        StringJoiner positions = new StringJoiner(", ");
        copies.forEach(copy -> positions.add(dlqPosition(copy)));
        Map<String, String> actual = new LinkedHashMap<>();
        actual.put("dlq_records", positions.toString());
        actual.put("original_value_sha256", sha256(copies.get(0)));
        actual.put("original_value_length", Long.toString(copies.get(0).originalValueLength()));
        evidence.sample(
            new EvidenceSample(
                "duplicate_original",
                entry.getKey().toString(),
                Map.of(),
                actual,
                List.of(),
                "original "
                    + entry.getKey()
                    + " was quarantined "
                    + copies.size()
                    + " times, at "
                    + positions));
      }
    }
    long missingMetadata = 0;
    long bytesNotPreserved = 0;
    for (DlqRecord record : records) {
      Map<String, String> faults = metadataFaults(record);
      if (!faults.isEmpty()) {
        missingMetadata++;
        evidence.sample(
            new EvidenceSample(
                "missing_metadata",
                dlqPosition(record),
                Map.of(),
                identity(record, faults),
                List.copyOf(faults.keySet()),
                "quarantined "
                    + originalPosition(record)
                    + " without valid "
                    + String.join(", ", faults.keySet())));
      }
      if (!record.originalBytesPreserved()) {
        bytesNotPreserved++;
        evidence.sample(
            new EvidenceSample(
                "bytes_not_preserved",
                dlqPosition(record),
                Map.of(),
                identity(record, Map.of()),
                List.of(),
                "the bytes of this record do not decode to the original value of "
                    + originalPosition(record)
                    + " (SHA-256 "
                    + sha256(record)
                    + "), so it cannot be repaired from the dead-letter topic"));
      }
    }
    evidence
        .fact("dead_letter_records", Integer.toString(records.size()))
        .fact("dead_letter_topics", topics(records))
        .count("records", records.size())
        .count("distinct_originals", byOriginal.size())
        .count("duplicate_originals", duplicateOriginals)
        .count("missing_metadata", missingMetadata)
        .count("bytes_not_preserved", bytesNotPreserved);
    if (duplicateOriginals == 0 && missingMetadata == 0 && bytesNotPreserved == 0) {
      return CheckResult.passed(
          NAME,
          records.size()
              + " dead-letter records, one per original, each with its error metadata and the"
              + " original bytes",
          evidence.build());
    }
    List<String> problems = new ArrayList<>();
    if (duplicateOriginals > 0) {
      problems.add(duplicateOriginals + " originals quarantined more than once");
    }
    if (missingMetadata > 0) {
      problems.add(missingMetadata + " records missing error metadata");
    }
    if (bytesNotPreserved > 0) {
      problems.add(bytesNotPreserved + " records without their original bytes");
    }
    return CheckResult.failed(
        NAME,
        String.join("; ", problems) + " (of " + records.size() + " dead-letter records)",
        evidence.build());
  }

  /** Field name to what is wrong with it; empty when the metadata is complete. */
  private static Map<String, String> metadataFaults(DlqRecord record) {
    Map<String, String> faults = new LinkedHashMap<>();
    if (blank(record.errorType())) {
      faults.put("error_type", record.errorType() == null ? "missing" : "blank");
    }
    if (blank(record.errorMessage())) {
      faults.put("error_message", record.errorMessage() == null ? "missing" : "blank");
    }
    if (record.quarantinedAt() == null) {
      faults.put("quarantined_at", "missing");
    }
    if (record.dlqSchemaVersion() < 1) {
      faults.put("dlq_schema_version", record.dlqSchemaVersion() + ", not >= 1");
    }
    if (!SHA256_HEX.matcher(record.originalValueSha256()).matches()) {
      faults.put("original_value_sha256", sha256(record));
    }
    if (record.originalValueLength() < 0) {
      faults.put("original_value_length", record.originalValueLength() + ", not >= 0");
    }
    return faults;
  }

  /** What identifies a record in a sample, then the faults found in it. */
  private static Map<String, String> identity(DlqRecord record, Map<String, String> faults) {
    Map<String, String> values = new LinkedHashMap<>();
    values.put("dlq_topic", record.topic());
    values.put("dlq_partition", Integer.toString(record.partition()));
    values.put("dlq_offset", Long.toString(record.offset()));
    values.put("original_topic", record.originalTopic());
    values.put("original_partition", Integer.toString(record.originalPartition()));
    values.put("original_offset", Long.toString(record.originalOffset()));
    values.put("original_value_sha256", sha256(record));
    values.put("original_value_length", Long.toString(record.originalValueLength()));
    String errorType = record.errorType();
    if (errorType != null && ERROR_TYPE.matcher(errorType).matches()) {
      values.put("error_type", errorType);
    }
    values.putAll(faults);
    return values;
  }

  /**
   * The SHA-256 as recorded when it is one; otherwise only its length, since a field that is not a
   * digest might hold anything, the payload included.
   */
  private static String sha256(DlqRecord record) {
    String value = record.originalValueSha256();
    return SHA256_HEX.matcher(value).matches()
        ? value
        : "not 64 lower-case hex digits (" + value.length() + " characters, not shown)";
  }

  private static boolean blank(@Nullable String value) {
    return value == null || value.isBlank();
  }

  private static String dlqPosition(DlqRecord record) {
    return record.topic() + "/" + record.partition() + "@" + record.offset();
  }

  private static String originalPosition(DlqRecord record) {
    return record.originalTopic()
        + "/"
        + record.originalPartition()
        + "@"
        + record.originalOffset();
  }

  private static String topics(List<DlqRecord> records) {
    return String.join(", ", records.stream().map(DlqRecord::topic).distinct().sorted().toList());
  }
}
