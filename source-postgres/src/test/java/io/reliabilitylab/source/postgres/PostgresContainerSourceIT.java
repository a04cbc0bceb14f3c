package io.reliabilitylab.source.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeFalse;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import org.junit.jupiter.api.Test;

/**
 * A PostgreSQL container as the source, where Docker runs (skipped otherwise: CI has no Docker; the
 * embedded server covers the same checks there), and the one-line refusal where it does not.
 */
class PostgresContainerSourceIT {

  @Test
  void meetsThePrerequisitesOfLogicalDecoding() throws Exception {
    assumeTrue(PostgresContainerSource.dockerAvailable(), "no Docker engine on this machine");
    try (PostgresContainerSource postgres = PostgresContainerSource.start()) {
      PostgresReadiness readiness =
          PostgresPrerequisites.verify(postgres, CaptureTarget.table("public", "orders"));
      assertThat(readiness.summary()).contains("wal_level=logical").contains("role lab_cdc");
    }
  }

  @Test
  void withoutDockerItRefusesWithOneLineNamingTheAlternatives() {
    assumeFalse(PostgresContainerSource.dockerAvailable(), "Docker runs here");
    assertThatThrownBy(PostgresContainerSource::start)
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("No Docker engine")
        .hasMessageContaining("embedded PostgreSQL")
        .hasMessageNotContaining("\n");
  }
}
