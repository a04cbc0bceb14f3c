package io.reliabilitylab.checks;

import static org.assertj.core.api.Assertions.assertThat;

import io.reliabilitylab.spi.Named;
import io.reliabilitylab.spi.check.ReconciliationCheck;
import java.util.ServiceLoader;
import org.junit.jupiter.api.Test;

class ServiceRegistrationTest {

  @Test
  void everyBuiltInCheckIsRegisteredUnderAValidName() {
    var names =
        ServiceLoader.load(ReconciliationCheck.class).stream()
            .map(ServiceLoader.Provider::get)
            .map(ReconciliationCheck::name)
            .toList();

    assertThat(names)
        .contains(
            SnapshotDiffCheck.NAME,
            EventIdAuditCheck.NAME,
            ChangelogCompletenessCheck.NAME,
            NoDuplicateKeysCheck.NAME,
            CurrentChangelogConsistencyCheck.NAME,
            OffsetCheckpointSnapshotLinkageCheck.NAME,
            DlqIntegrityCheck.NAME,
            ReaderViewCheck.NAME)
        .allMatch(Named::isValidName)
        .doesNotHaveDuplicates();
  }
}
