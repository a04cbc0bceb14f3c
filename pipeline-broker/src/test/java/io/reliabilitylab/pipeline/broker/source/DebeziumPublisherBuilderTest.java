package io.reliabilitylab.pipeline.broker.source;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.reliabilitylab.source.mysql.SourceDatabase;
import io.reliabilitylab.source.postgres.ExternalPostgres;
import io.reliabilitylab.spi.secret.Credentials;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DebeziumPublisherBuilderTest {

  @TempDir Path dir;

  private final SourceDatabase source = new FakeSource();

  @Test
  void defaultsNameTheTopicAfterPrefixDatabaseAndTable() {
    try (DebeziumPublisher publisher = builder().build()) {
      assertThat(publisher.topic()).isEqualTo("lab.shop.orders");
      assertThat(publisher.state()).isEqualTo(ConnectorState.NEW);
      assertThat(publisher.status()).isEqualTo("NEW");
      assertThat(publisher.offsetFile()).isEqualTo(dir.resolve("offsets.dat"));
      assertThat(publisher.historyFile()).isEqualTo(dir.resolve("schema-history.dat"));
    }
    try (DebeziumPublisher publisher = builder().topicPrefix("p1").table("orders_b").build()) {
      assertThat(publisher.topic()).isEqualTo("p1.shop.orders_b");
    }
    try (DebeziumPublisher publisher = builder().topic("cdc.orders").build()) {
      assertThat(publisher.topic()).isEqualTo("cdc.orders");
    }
  }

  @Test
  void picksTheMariaDbConnectorForMariaDbAndTheMySqlConnectorForMySql() {
    assertThat(DebeziumPublisher.connectorFor("10.11.5-MariaDB-log"))
        .isEqualTo(DebeziumPublisher.CONNECTOR_CLASS);
    assertThat(DebeziumPublisher.connectorFor("5.5.5-10.11.5-MariaDB"))
        .isEqualTo(DebeziumPublisher.CONNECTOR_CLASS);
    assertThat(DebeziumPublisher.connectorFor("8.0.40"))
        .isEqualTo(DebeziumPublisher.MYSQL_CONNECTOR_CLASS);
    try (DebeziumPublisher publisher =
        builder().connectorClass(DebeziumPublisher.MYSQL_CONNECTOR_CLASS).build()) {
      assertThat(publisher.effectiveConfiguration())
          .containsEntry("debezium.connector.class", DebeziumPublisher.MYSQL_CONNECTOR_CLASS);
    }
    assertThatThrownBy(() -> builder().connectorClass("io.debezium.connector.postgresql.X"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("MySQL 8");
  }

  @Test
  void bothConnectorsAreOnTheClassPath() throws Exception {
    assertThat(Class.forName(DebeziumPublisher.CONNECTOR_CLASS)).isNotNull();
    assertThat(Class.forName(DebeziumPublisher.MYSQL_CONNECTOR_CLASS)).isNotNull();
  }

  @Test
  void engineSettingsCarryTheTunablesAndFileStores() {
    DebeziumPublisherBuilder builder =
        builder()
            .serverId(6401)
            .pollInterval(Duration.ofMillis(20))
            .maxBatchSize(500)
            .offsetFlushInterval(Duration.ofMillis(100))
            .connectorProperty("snapshot.locking.mode", "none");
    Properties engine = builder.engineProperties(dir);

    assertThat(engine)
        .containsEntry("connector.class", "io.debezium.connector.mariadb.MariaDbConnector")
        .containsEntry("offset.storage", "org.apache.kafka.connect.storage.FileOffsetBackingStore")
        .containsEntry("offset.storage.file.filename", dir.resolve("offsets.dat").toString())
        .containsEntry(
            "schema.history.internal", "io.debezium.storage.file.history.FileSchemaHistory")
        .containsEntry(
            "schema.history.internal.file.filename", dir.resolve("schema-history.dat").toString())
        .containsEntry("offset.flush.interval.ms", "100")
        .containsEntry("poll.interval.ms", "20")
        .containsEntry("max.batch.size", "500")
        .containsEntry("max.queue.size", "8192")
        .containsEntry("retriable.restart.connector.wait.ms", "500")
        .containsEntry("database.server.id", "6401")
        .containsEntry("table.include.list", "shop.orders")
        .containsEntry("include.schema.changes", "false")
        .containsEntry("tombstones.on.delete", "true")
        .containsEntry("snapshot.locking.mode", "none");

    Map<String, Object> producer =
        builder().producerLinger(Duration.ofMillis(2)).producerProperties();
    assertThat(producer)
        .containsEntry("acks", "all")
        .containsEntry("enable.idempotence", true)
        .containsEntry("linger.ms", 2)
        .containsEntry("bootstrap.servers", "127.0.0.1:9092");
  }

  @Test
  void aPostgresSourceGetsPgoutputFromASlotOfItsOwnThroughItsTablesPublication() {
    ExternalPostgres postgres =
        ExternalPostgres.builder()
            .jdbcUrl("jdbc:postgresql://127.0.0.1:5432/shop")
            .admin("cdc", "s3cret")
            .build();
    DebeziumPublisherBuilder builder =
        DebeziumPublisher.builder(postgres, "127.0.0.1:9092", dir).slotName("srl_broker_7");
    Properties engine = builder.engineProperties(dir);

    assertThat(engine)
        .containsEntry("connector.class", DebeziumPublisher.POSTGRES_CONNECTOR_CLASS)
        .containsEntry("database.dbname", "shop")
        .containsEntry("plugin.name", "pgoutput")
        .containsEntry("slot.name", "srl_broker_7")
        .containsEntry("slot.drop.on.stop", "false")
        // a rewound offset file can replay only what the slot did not confirm
        .containsEntry("lsn.flush.mode", "manual")
        .containsEntry("publication.name", "srl_orders")
        .containsEntry("publication.autocreate.mode", "disabled")
        .containsEntry("table.include.list", "public.orders")
        .containsEntry("provide.transaction.metadata", "true")
        .doesNotContainKeys("database.server.id", "schema.history.internal");
    try (DebeziumPublisher publisher = builder.build()) {
      assertThat(publisher.topic()).isEqualTo("lab.public.orders");
      assertThat(publisher.replicationSlot()).contains("srl_broker_7");
    }
    try (DebeziumPublisher publisher = builder().build()) {
      assertThat(publisher.replicationSlot()).isEmpty();
    }
    assertThat(DebeziumPublisher.builder(postgres, "127.0.0.1:9092", dir).build().replicationSlot())
        .get()
        .asString()
        .startsWith("srl_broker_");
    assertThatThrownBy(() -> builder.slotName("Bad-Slot"))
        .hasMessageContaining("1 to 63 lower-case letters, digits or _");
  }

  @Test
  void thePostgresConnectorIsOnTheClassPathWithADriverOfItsOwn() throws Exception {
    assertThat(Class.forName(DebeziumPublisher.POSTGRES_CONNECTOR_CLASS)).isNotNull();
    // Debezium 3.5 needs pgjdbc 42.7.6+, the lab's own driver stays the one Flink CDC needs
    assertThat(java.sql.DriverManager.getDriver("jdbc:postgresql://127.0.0.1/x").getClass())
        .isEqualTo(org.postgresql.Driver.class);
    assertThat(org.postgresql.Driver.class.getMethod("getVersion").invoke(null).toString())
        .contains("42.7.3");
  }

  @Test
  void theEffectiveConfigurationMasksThePassword() {
    try (DebeziumPublisher publisher = builder().build()) {
      assertThat(publisher.effectiveConfiguration())
          .containsEntry("debezium.database.password", "***")
          .containsEntry("producer.acks", "all")
          .doesNotContainValue("s3cret");
    }
  }

  @Test
  void theBrokenPublisherGivesUpOnARecordWithinASecondAndSaysSo() {
    assertThat(builder().dropUnacknowledged().producerProperties())
        .containsEntry("enable.idempotence", false)
        .containsEntry("retries", 0)
        .containsEntry("delivery.timeout.ms", 1000)
        .containsEntry("max.block.ms", 1000);
    assertThat(builder().producerProperties()).doesNotContainKey("max.block.ms");
    try (DebeziumPublisher faithful = builder().build();
        DebeziumPublisher broken = builder().dropUnacknowledged().build()) {
      assertThat(faithful.effectiveConfiguration().get("publisher.unacknowledged"))
          .contains("at least once");
      assertThat(broken.effectiveConfiguration().get("publisher.unacknowledged"))
          .contains("BROKEN");
    }
    assertThat(builder().resendUnacknowledged().producerProperties())
        .containsEntry("enable.idempotence", false)
        .containsEntry("request.timeout.ms", 1500)
        .doesNotContainKey("retries");
    try (DebeziumPublisher resending = builder().resendUnacknowledged().build()) {
      assertThat(resending.effectiveConfiguration().get("publisher.unacknowledged"))
          .contains("BROKEN", "1500 ms");
    }
  }

  @Test
  void refusesSettingsThatWouldBreakIt() {
    assertThatThrownBy(() -> builder().maxBatchSize(100).maxQueueSize(100).build())
        .hasMessageContaining("must exceed maxBatchSize");
    assertThatThrownBy(() -> builder().producerProperty("acks", "1").build())
        .hasMessageContaining("keep acks=all");
    assertThatThrownBy(() -> builder().topicPrefix("a b"))
        .hasMessageContaining("topicPrefix 'a b' is not accepted");
    assertThatThrownBy(() -> builder().pollInterval(Duration.ZERO))
        .hasMessageContaining("pollInterval must be positive");
    assertThatThrownBy(() -> DebeziumPublisher.builder(source, " ", dir))
        .hasMessageContaining("bootstrapServers is empty");
  }

  @Test
  void controlsOutsideARunSayWhatIsWrong() {
    try (DebeziumPublisher publisher = builder().build()) {
      assertThat(publisher.stop().state()).isEqualTo(ConnectorState.NEW);
      assertThatThrownBy(publisher::snapshotOffsets)
          .hasMessageContaining("No offsets were flushed");
      assertThatThrownBy(() -> publisher.corruptNext(0)).hasMessageContaining("starts at 1");
      publisher.corruptNext(2);
      assertThatThrownBy(() -> publisher.corruptNext(1)).hasMessageContaining("armed already");
    }
  }

  @Test
  void closingCompletesAnArmedPoisonExceptionally() {
    DebeziumPublisher publisher = builder().build();
    var poison = publisher.corruptNext(1);
    publisher.close();
    assertThat(poison).isCompletedExceptionally();
    assertThat(publisher.state()).isEqualTo(ConnectorState.CLOSED);
    assertThatThrownBy(publisher::start).hasMessageContaining("closed");
  }

  private DebeziumPublisherBuilder builder() {
    return DebeziumPublisher.builder(source, "127.0.0.1:9092", dir);
  }

  private static final class FakeSource implements SourceDatabase {
    @Override
    public String kind() {
      return "external";
    }

    @Override
    public String serverVersion() {
      return "10.11.5-MariaDB-log";
    }

    @Override
    public String host() {
      return "127.0.0.1";
    }

    @Override
    public int port() {
      return 3306;
    }

    @Override
    public String database() {
      return "shop";
    }

    @Override
    public String jdbcUrl() {
      return "jdbc:mysql://127.0.0.1:3306/shop";
    }

    @Override
    public Credentials cdcCredentials() {
      return Credentials.of("cdc", "s3cret");
    }

    @Override
    public Connection connect() throws SQLException {
      throw new SQLException("not connected in a unit test");
    }

    @Override
    public void close() {}
  }
}
