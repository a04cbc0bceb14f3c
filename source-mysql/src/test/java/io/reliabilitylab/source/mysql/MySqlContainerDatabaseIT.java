package io.reliabilitylab.source.mysql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeFalse;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.reliabilitylab.spi.data.CloseableIterator;
import io.reliabilitylab.spi.data.Row;
import io.reliabilitylab.workload.Workload;
import io.reliabilitylab.workload.WorkloadConfig;
import io.reliabilitylab.workload.WorkloadGenerator;
import io.reliabilitylab.workload.oracle.Oracle;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A MySQL 8 container as the source, where Docker runs (skipped otherwise: CI has no Docker; the
 * embedded MariaDB covers the same path there), and the one-line refusal where it does not.
 */
class MySqlContainerDatabaseIT {

  @Test
  void meetsTheCdcPrerequisitesAndHoldsTheWorkloadTheOracleExpects() throws Exception {
    assumeTrue(MySqlContainerDatabase.dockerAvailable(), "no Docker engine on this machine");
    Workload workload = WorkloadGenerator.generate(WorkloadConfig.of(500, 42));
    try (MySqlContainerDatabase mysql = MySqlContainerDatabase.start()) {
      assertThat(CdcPrerequisites.verify(mysql).ready()).isTrue();
      OrdersTable.in(mysql).reset();
      WorkloadWriter.to(mysql).write(workload);
      List<Row> rows = new ArrayList<>();
      try (CloseableIterator<Row> read = SourceRowReader.orders(mysql).open()) {
        read.forEachRemaining(rows::add);
      }
      assertThat(rows).isEqualTo(Oracle.expect(workload).currentRows());
    }
  }

  @Test
  void withoutDockerItRefusesWithOneLineNamingTheAlternatives() {
    assumeFalse(MySqlContainerDatabase.dockerAvailable(), "Docker runs here");
    assertThatThrownBy(MySqlContainerDatabase::start)
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("No Docker engine")
        .hasMessageContaining("embedded MariaDB")
        .hasMessageNotContaining("\n");
  }
}
