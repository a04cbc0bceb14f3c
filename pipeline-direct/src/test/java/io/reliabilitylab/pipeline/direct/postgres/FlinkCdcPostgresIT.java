package io.reliabilitylab.pipeline.direct.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import io.reliabilitylab.source.postgres.EmbeddedPostgres;
import io.reliabilitylab.source.postgres.PostgresBinaries;
import io.reliabilitylab.source.postgres.PostgresOrdersTable;
import io.reliabilitylab.source.postgres.PostgresPrerequisites;
import io.reliabilitylab.source.postgres.PostgresWorkloadWriter;
import io.reliabilitylab.spi.data.Row;
import io.reliabilitylab.spi.data.TableSchema;
import io.reliabilitylab.workload.SourceChange;
import io.reliabilitylab.workload.SourceTransaction;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.cdc.connectors.postgres.source.PostgresSourceBuilder;
import org.apache.flink.cdc.debezium.JsonDebeziumDeserializationSchema;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.util.CloseableIterator;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * Flink CDC 3.5's PostgreSQL source, relocated beside the MySQL one and reading through the lab's
 * own pgjdbc, captures the embedded server by {@code pgoutput}: the snapshot of the rows there,
 * then the workload's insert, update, key change and delete from the WAL, each with its LSN,
 * through a slot the capture role creates and the publication the table's owner created with it.
 */
class FlinkCdcPostgresIT {

  private static final Instant TIME = Instant.parse("2026-12-05T00:00:00.123Z");

  private static Row order(long key, String status, long eventId) {
    return TableSchema.ORDERS.row(key, "ord-" + key, 7L, 100L * key, status, eventId, 1, TIME);
  }

  @Test
  void theSnapshotAndEveryKindOfChangeArriveWithTheirLsn() throws Exception {
    if (System.getenv("CI") == null) {
      try {
        PostgresBinaries.find();
      } catch (IllegalStateException e) {
        Assumptions.abort(e.getMessage());
      }
    }
    try (EmbeddedPostgres postgres = EmbeddedPostgres.start()) {
      PostgresOrdersTable orders = PostgresOrdersTable.in(postgres);
      // the table's owner creates it with its publication, srl_orders
      orders.reset();
      PostgresPrerequisites.verify(postgres, orders.target("srl_orders"));
      PostgresWorkloadWriter writer = PostgresWorkloadWriter.to(postgres);
      writer.write(
          List.of(
              new SourceTransaction(
                  0,
                  TIME,
                  List.of(
                      SourceChange.insert(order(1, "created", 1)),
                      SourceChange.insert(order(2, "created", 2))))));

      Properties debezium = new Properties();
      debezium.setProperty("publication.name", "srl_orders");
      debezium.setProperty("publication.autocreate.mode", "disabled");
      PostgresSourceBuilder.PostgresIncrementalSource<String> source =
          PostgresSourceBuilder.PostgresIncrementalSource.<String>builder()
              .hostname(postgres.host())
              .port(postgres.port())
              .database(postgres.database())
              .schemaList("public")
              .tableList("public.orders")
              .username(postgres.cdcCredentials().user())
              .password(postgres.cdcCredentials().revealPassword())
              .slotName("srl_it")
              .decodingPluginName("pgoutput")
              .debeziumProperties(debezium)
              .deserializer(new JsonDebeziumDeserializationSchema())
              .build();
      StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(1);
      env.enableCheckpointing(500);
      List<String> records = new ArrayList<>();
      ExecutorService workload = Executors.newSingleThreadExecutor();
      try (CloseableIterator<String> changes =
          env.fromSource(source, WatermarkStrategy.noWatermarks(), "postgres-cdc")
              .executeAndCollect("flink-cdc-postgres-it")) {
        for (int i = 0; i < 2; i++) {
          records.add(changes.next());
        }
        Future<?> written =
            workload.submit(
                () -> {
                  // once the stream split reads, give it the kinds of change the workload makes
                  Thread.sleep(2_000);
                  return writer.write(
                      List.of(
                          new SourceTransaction(
                              1,
                              TIME,
                              List.of(
                                  SourceChange.update(order(1, "created", 1), order(1, "paid", 3)),
                                  SourceChange.update(order(2, "created", 2), order(9, "moved", 4)),
                                  SourceChange.insert(order(3, "created", 5)),
                                  SourceChange.delete(order(1, "paid", 3))))));
                });
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (records.stream().noneMatch(r -> r.contains("\"event_id\":5"))
            && System.nanoTime() < deadline) {
          records.add(changes.next());
        }
        written.get(10, TimeUnit.SECONDS);
        // the delete follows the insert in the same transaction
        records.add(changes.next());
      } finally {
        workload.shutdownNow();
        try (Connection admin = postgres.connect();
            Statement statement = admin.createStatement()) {
          statement.execute(
              "SELECT pg_drop_replication_slot(slot_name) FROM pg_replication_slots"
                  + " WHERE slot_name = 'srl_it' AND NOT active");
        }
      }

      List<String> ops = records.stream().map(FlinkCdcPostgresIT::op).toList();
      assertThat(ops.subList(0, 2)).containsOnly("r");
      // the key change arrives as a delete of order 2 and a create of order 9
      assertThat(ops.subList(2, ops.size())).containsExactly("u", "d", "c", "c", "d");
      assertThat(records.subList(2, records.size())).allMatch(r -> r.contains("\"lsn\":"));
    }
  }

  private static String op(String record) {
    int at = record.indexOf("\"op\":\"");
    return record.substring(at + 6, at + 7);
  }
}
