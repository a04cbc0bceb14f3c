package io.reliabilitylab.record;

import io.reliabilitylab.spi.check.CheckResult;
import io.reliabilitylab.spi.check.Evidence;
import io.reliabilitylab.spi.fault.FaultEvidence;
import io.reliabilitylab.spi.fault.RecoveryEvidence;
import io.reliabilitylab.spi.pipeline.CheckpointInfo;
import io.reliabilitylab.spi.pipeline.JobFailure;
import io.reliabilitylab.spi.secret.Redactor;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * Masks secrets in the free text of SPI values before they enter a record: a failure reason or an
 * evidence fact often quotes a JDBC URL or an option. Row values in samples are data and are left
 * alone.
 */
final class RecordRedaction {

  private RecordRedaction() {}

  static CheckResult check(CheckResult result) {
    Evidence evidence = result.evidence();
    Evidence redacted =
        new Evidence(
            evidence.counts(),
            evidence.digests(),
            Redactor.redactProperties(evidence.facts()),
            evidence.samples(),
            evidence.samplesOmitted());
    return new CheckResult(
        result.check(), result.verdict(), Redactor.redact(result.summary()), redacted);
  }

  static FaultEvidence fault(FaultEvidence evidence) {
    return new FaultEvidence(
        evidence.faultId(),
        evidence.fault(),
        evidence.status(),
        evidence.injectedAt(),
        evidence.firedAt(),
        Redactor.redact(evidence.what()),
        Redactor.redactProperties(evidence.details()),
        evidence.proofs().stream().map(Redactor::redact).toList(),
        Redactor.redact(evidence.reason()));
  }

  static RecoveryEvidence recovery(RecoveryEvidence evidence) {
    return new RecoveryEvidence(
        evidence.recovered(),
        evidence.faultAt(),
        evidence.runningAt(),
        evidence.firstCheckpointId(),
        evidence.firstCheckpointAt(),
        evidence.firstCommitSnapshotId(),
        evidence.firstCommitAt(),
        evidence.restarts(),
        Redactor.redactProperties(evidence.details()));
  }

  static JobFailure failure(JobFailure failure) {
    return new JobFailure(
        failure.at(),
        failure.exceptionClass(),
        Redactor.redact(failure.message()),
        Redactor.redactNullable(failure.task()),
        Redactor.redactNullable(failure.location()),
        failure.global());
  }

  static CheckpointInfo checkpoint(CheckpointInfo checkpoint) {
    return new CheckpointInfo(
        checkpoint.id(),
        checkpoint.status(),
        checkpoint.triggeredAt(),
        checkpoint.finishedAt(),
        Redactor.redactNullable(checkpoint.externalPath()),
        Redactor.redactNullable(checkpoint.failureReason()),
        Durations.millis(checkpoint.alignmentDuration()),
        checkpoint.savepoint());
  }

  static <T> List<T> each(List<T> values, UnaryOperator<T> redaction) {
    return values.stream().map(redaction).toList();
  }
}
