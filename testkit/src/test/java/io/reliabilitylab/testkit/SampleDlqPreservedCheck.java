package io.reliabilitylab.testkit;

import com.google.auto.service.AutoService;
import io.reliabilitylab.spi.check.CheckContext;
import io.reliabilitylab.spi.check.CheckResult;
import io.reliabilitylab.spi.check.DlqRecord;
import io.reliabilitylab.spi.check.Evidence;
import io.reliabilitylab.spi.check.EvidenceSample;
import io.reliabilitylab.spi.check.ReconciliationCheck;

/**
 * A check over dead-letter records, for the kit's own tests: it shows the context hooks at work for
 * a check that reads neither table.
 */
@AutoService(ReconciliationCheck.class)
public final class SampleDlqPreservedCheck implements ReconciliationCheck {

  @Override
  public String name() {
    return "sample-dlq-preserved";
  }

  @Override
  public String description() {
    return "Every dead-letter record keeps its original bytes (testkit sample)";
  }

  @Override
  public CheckResult check(CheckContext context) {
    if (context.dlqRecords().isEmpty()) {
      return CheckResult.missingInput(name(), "dead-letter record");
    }
    Evidence.Builder evidence = Evidence.builder(context.sampleLimit());
    evidence.count("dlq_records", context.dlqRecords().size());
    long lost = 0;
    for (DlqRecord record : context.dlqRecords()) {
      if (!record.originalBytesPreserved()) {
        lost++;
        evidence.sample(
            EvidenceSample.of(
                "not_preserved",
                record.topic() + "/" + record.partition() + "@" + record.offset(),
                "original bytes of " + record.originalTopic() + "@" + record.originalOffset()));
      }
    }
    evidence.count("not_preserved", lost);
    return lost == 0
        ? CheckResult.passed(name(), "all dead-letter records keep their bytes", evidence.build())
        : CheckResult.failed(
            name(), lost + " dead-letter records lost their bytes", evidence.build());
  }
}
