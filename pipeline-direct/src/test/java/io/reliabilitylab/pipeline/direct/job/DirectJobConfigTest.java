package io.reliabilitylab.pipeline.direct.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.reliabilitylab.pipeline.flink.sink.JobVariant;
import io.reliabilitylab.spi.pipeline.SourceEndpoint;
import io.reliabilitylab.spi.secret.Credentials;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class DirectJobConfigTest {

  private static final DirectJobConfig CONFIG =
      DirectJobConfig.builder()
          .source(
              new SourceEndpoint(
                  "jdbc:mysql://127.0.0.1:3307/lab",
                  "127.0.0.1",
                  3307,
                  "lab",
                  "orders",
                  Credentials.of("cdc", "s3cret-pw")))
          .settings(
              s -> s.warehouse(Path.of("/srv/lab/w")).checkpointDirectory(Path.of("/srv/lab/c")))
          .build();

  private static final SourceEndpoint POSTGRES =
      new SourceEndpoint(
          "jdbc:postgresql://127.0.0.1:5433/lab",
          "127.0.0.1",
          5433,
          "lab",
          "orders",
          Credentials.of("lab_cdc", "s3cret-pw"));

  @Test
  void theDefaultsCheckpointEverySecondAndRestartWithAFixedDelay() {
    assertThat(CONFIG.settings().checkpointInterval()).isEqualTo(Duration.ofSeconds(1));
    assertThat(CONFIG.effectiveConfiguration())
        .containsEntry("execution.checkpointing.mode", "EXACTLY_ONCE")
        .containsEntry("restart-strategy.type", "fixed-delay")
        .containsEntry("restart-strategy.fixed-delay.delay", "PT0.2S")
        .containsEntry("sink.current.uid-prefix", "iceberg-orders-current")
        .containsEntry("sink.changelog.uid-prefix", "iceberg-orders-changelog")
        .containsEntry("source", "127.0.0.1:3307/lab.orders")
        .containsEntry("source.user", "cdc");
  }

  @Test
  void aPostgresSourceIsReadFromItsSlotAndSaysSo() {
    DirectJobConfig postgres =
        CONFIG.toBuilder().source(POSTGRES).slotName("srl_direct_1f").build();

    assertThat(postgres.engine()).isEqualTo(SourceEngine.POSTGRES);
    assertThat(CONFIG.engine()).isEqualTo(SourceEngine.MYSQL);
    assertThat(postgres.effectiveConfiguration())
        .containsEntry("source.slot", "srl_direct_1f")
        .containsEntry("source.lsn-commit.checkpoints-delay", "3")
        .containsEntry("source.heartbeat-interval-ms", "30000 (Flink CDC's default)")
        .doesNotContainKey("source.server-id")
        .hasEntrySatisfying("source.connector", c -> assertThat(c).contains("pgoutput"));
    assertThat(CONFIG.effectiveConfiguration()).doesNotContainKey("source.slot");
  }

  @Test
  void theFaultSensitiveControlsSayWhatIsBrokenAndANoReconnectOneIsRefusedOnPostgres() {
    assertThat(
            CONFIG.toBuilder()
                .settings(s -> s.variant(JobVariant.BROKEN_CHANGELOG_AT_LEAST_ONCE))
                .build()
                .effectiveConfiguration())
        .containsEntry("job.variant", "broken-changelog-at-least-once")
        .hasEntrySatisfying("sink.changelog.mode", mode -> assertThat(mode).contains("BROKEN"));
    assertThat(
            CONFIG.toBuilder()
                .settings(s -> s.variant(JobVariant.BROKEN_SOURCE_NOT_RESTORED))
                .build()
                .effectiveConfiguration())
        .hasEntrySatisfying("source.uid", uid -> assertThat(uid).contains("BROKEN"));
    assertThatThrownBy(
            () ->
                CONFIG.toBuilder()
                    .source(POSTGRES)
                    .settings(s -> s.variant(JobVariant.BROKEN_SOURCE_NO_RECONNECT))
                    .build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("job.variant=broken-source-no-reconnect")
        .hasMessageContaining("use broken-changelog-at-least-once there")
        .hasMessageNotContaining("\n");
    assertThatThrownBy(
            () ->
                CONFIG.toBuilder()
                    .settings(s -> s.variant(JobVariant.BROKEN_DEDUP_LAST_ONLY))
                    .build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("run it with --pipeline broker");
    assertThatThrownBy(
            () ->
                CONFIG.toBuilder()
                    .settings(s -> s.variant(JobVariant.BROKEN_PUBLISHER_DROPS_UNACKNOWLEDGED))
                    .build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("run it with --pipeline broker");
    assertThatThrownBy(
            () ->
                CONFIG.toBuilder()
                    .settings(s -> s.variant(JobVariant.BROKEN_PUBLISHER_RESENDS))
                    .build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("run it with --pipeline broker");
    assertThatThrownBy(
            () ->
                CONFIG.toBuilder()
                    .settings(s -> s.variant(JobVariant.BROKEN_UNDECODABLE_SKIPPED))
                    .build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("job.variant=broken-undecodable-skipped")
        .hasMessageContaining("run it with --pipeline broker");
    assertThatThrownBy(
            () ->
                CONFIG.toBuilder()
                    .settings(s -> s.variant(JobVariant.BROKEN_SOURCE_COMMITS_READ_POSITION))
                    .build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("job.variant=broken-source-commits-read-position")
        .hasMessageContaining("run it with --source postgres")
        .hasMessageNotContaining("\n");
  }

  @Test
  void aHeartbeatIntervalIsRecordedAndANegativeOneRefused() {
    assertThat(
            CONFIG.toBuilder()
                .source(CONFIG.source().withTable("orders"))
                .heartbeatInterval(Duration.ofMillis(100))
                .build()
                .heartbeatInterval())
        .isEqualTo(Duration.ofMillis(100));
    assertThatThrownBy(() -> CONFIG.toBuilder().heartbeatInterval(Duration.ofMillis(-1)).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(
            "heartbeatInterval must be zero (the connector's default) or positive");
  }

  @Test
  void aSlotNamePostgresWouldRefuseIsRefusedUpFront() {
    assertThatThrownBy(() -> CONFIG.toBuilder().slotName("Direct-Slot").build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("slotName must be 1 to 63 lower-case letters, digits or _");
  }

  @Test
  void neverShowsThePassword() {
    assertThat(CONFIG.effectiveConfiguration().values()).noneMatch(v -> v.contains("s3cret-pw"));
    assertThat(CONFIG.toString()).doesNotContain("s3cret-pw");
    assertThat(String.valueOf(CONFIG.source())).doesNotContain("s3cret-pw");
    assertThat(CONFIG.source().credentials().revealPassword()).isEqualTo("s3cret-pw");
  }

  @Test
  void refusesToBuildWithoutASource() {
    assertThatThrownBy(() -> DirectJobConfig.builder().build())
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("needs a source");
  }

  @Test
  void toBuilderChangesOneSetting() {
    DirectJobConfig changed = CONFIG.toBuilder().settings(s -> s.parallelism(1)).build();

    assertThat(changed.settings().parallelism()).isEqualTo(1);
    assertThat(DirectJob.create(changed).withParallelism(2).config()).isEqualTo(CONFIG);
  }

  @Test
  void refusesTheSameUidPrefixForBothSinks() {
    assertThatThrownBy(
            () -> CONFIG.toBuilder().settings(s -> s.changelogUidPrefix("iceberg-orders-current")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("different uid prefixes");
  }

  @Test
  void refusesAMalformedServerIdRange() {
    assertThatThrownBy(() -> CONFIG.toBuilder().serverIdRange("54x").build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("5400-5409");
  }

  @Test
  void hasFaultPointsByDefaultWithCheckpointsOnTheFaultInjectingFileSystem() {
    assertThat(CONFIG.settings().faultPoints()).isTrue();
    assertThat(CONFIG.settings().faultPointNames())
        .contains("source-enumerator", "operator", "sink-commit");
    assertThat(CONFIG.settings().checkpointStorageUri()).hasToString("srlfault:///srv/lab/c");
    assertThat(CONFIG.effectiveConfiguration())
        .containsEntry("execution.checkpointing.dir", "srlfault:///srv/lab/c")
        .hasEntrySatisfying("fault-points", value -> assertThat(value).startsWith("on"));
  }

  @Test
  void withoutFaultPointsTheJobIsBareAndCheckpointsAreLocalFiles() {
    DirectJobConfig bare = CONFIG.toBuilder().settings(s -> s.faultPoints(false)).build();

    assertThat(bare.settings().faultPointNames()).isEmpty();
    assertThat(bare.settings().checkpointStorageUri()).hasToString("file:///srv/lab/c");
    assertThat(bare.effectiveConfiguration()).containsEntry("fault-points", "off");
    assertThat(DirectJob.create(bare).faultPoints()).isEmpty();
  }

  @Test
  void inlinesSmallTaskStateUnlessAskedToWriteItIntoFiles() {
    assertThat(CONFIG.settings().taskStateInFiles()).isFalse();
    assertThat(
            CONFIG.toBuilder()
                .settings(s -> s.taskStateInFiles(true))
                .build()
                .effectiveConfiguration())
        .containsEntry("state.storage.fs.memory-threshold", "0 b");
  }
}
