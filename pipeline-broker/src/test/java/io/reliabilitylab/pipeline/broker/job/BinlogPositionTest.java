package io.reliabilitylab.pipeline.broker.job;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class BinlogPositionTest {

  @ParameterizedTest
  @CsvSource({
    "mysql-bin.000009, mysql-bin.000010",
    "mysql-bin.999999, mysql-bin.1000000",
    "mysql-bin.000012, mysql-bin.13",
    "a-bin.000099, b-bin.000001",
    "mysql-bin.000001, mysql-bin.00000a",
    "'', mysql-bin.000001",
    "mysql-bin, mysql-bin.000001",
    "mysql-bin.99999999999999999999998, mysql-bin.99999999999999999999999",
  })
  void ordersFileNames(String earlier, String later) {
    assertThat(BinlogPosition.compareFiles(earlier, later)).isNegative();
    assertThat(BinlogPosition.compareFiles(later, earlier)).isPositive();
    assertThat(BinlogPosition.compareFiles(later, later)).isZero();
  }

  @Test
  void ordersByFileThenOffsetThenRow() {
    BinlogPosition position = new BinlogPosition("mysql-bin.000002", 500, 1);

    assertThat(position).isGreaterThan(new BinlogPosition("mysql-bin.000001", 900, 9));
    assertThat(position).isGreaterThan(new BinlogPosition("mysql-bin.000002", 499, 9));
    assertThat(position).isGreaterThan(new BinlogPosition("mysql-bin.000002", 500, 0));
    assertThat(position).isEqualByComparingTo(new BinlogPosition("mysql-bin.000002", 500, 1));
    assertThat(position).isLessThan(new BinlogPosition("mysql-bin.000002", 500, 2));
    assertThat(position).isLessThan(new BinlogPosition("mysql-bin.000010", 4, 0));
    assertThat(position).hasToString("mysql-bin.000002:500#1");
  }

  @Test
  void sameNumberWithOtherZeroPaddingIsStillTwoFiles() {
    assertThat(BinlogPosition.compareFiles("mysql-bin.000012", "mysql-bin.12")).isNotZero();
  }
}
