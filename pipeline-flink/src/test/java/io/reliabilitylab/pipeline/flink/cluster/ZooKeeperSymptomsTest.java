package io.reliabilitylab.pipeline.flink.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.time.ZoneId;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ZooKeeperSymptomsTest {

  @TempDir Path logs;

  @Test
  void picksTheSessionAndLeadershipLinesSinceTheCutOldestFirstNamingTheProcess()
      throws IOException {
    Files.writeString(
        logs.resolve("flink-tm-1.log"),
        """
        01:36:20.001 INFO  [main-EventThread] o.a.f.s.c.o.a.c.f.s.ConnectionStateManager - State change: SUSPENDED
        01:36:22.813 INFO  [main-EventThread] o.a.f.s.c.o.a.c.f.s.ConnectionStateManager - State change: SUSPENDED
        01:36:22.816 INFO  [Curator-ConnectionStateManager-0] o.a.f.r.taskexecutor.TaskExecutor - JobManager for job d30f with leader id a8ec lost leadership.
        Caused by: java.lang.Exception: Job leader for job id d30f lost leadership.
        01:36:23.000 INFO  [main] o.a.f.r.taskexecutor.TaskExecutor - an unrelated line
        """);
    Files.writeString(
        logs.resolve("flink-jm-1.log"),
        """
        01:36:24.702 INFO  [main-EventThread] o.a.f.s.c.o.a.c.f.s.ConnectionStateManager - State change: LOST
        01:36:26.582 INFO  [Thread-377] o.a.f.r.d.DispatcherRestEndpoint - http://127.0.0.1:33365 lost leadership
        """);
    Files.writeString(
        logs.resolve("zookeeper.log"),
        "01:36:25.000 INFO  [main] o.a.z.Server - State change: LOST\n");

    List<String> symptoms = ZooKeeperSymptoms.since(logs, at("01:36:22.000"), 10);

    assertThat(symptoms)
        .containsExactly(
            "flink-tm-1 01:36:22.813 State change: SUSPENDED",
            "flink-tm-1 01:36:22.816 JobManager for job d30f with leader id a8ec lost leadership.",
            "flink-jm-1 01:36:24.702 State change: LOST",
            "flink-jm-1 01:36:26.582 http://127.0.0.1:33365 lost leadership");
    assertThat(ZooKeeperSymptoms.since(logs, at("01:36:22.000"), 2)).hasSize(2);
  }

  @Test
  void aLineAfterMidnightCountsAsSinceACutBeforeIt() throws IOException {
    Files.writeString(
        logs.resolve("flink-tm-1.log"),
        "00:00:01.500 INFO  [main-EventThread] x.ConnectionStateManager - State change: LOST\n");

    assertThat(ZooKeeperSymptoms.since(logs, at("23:59:58.000"), 10))
        .containsExactly("flink-tm-1 00:00:01.500 State change: LOST");
    assertThat(ZooKeeperSymptoms.since(logs.resolve("absent"), at("23:59:58.000"), 10)).isEmpty();
  }

  private static Instant at(String time) {
    return LocalDate.now().atTime(LocalTime.parse(time)).atZone(ZoneId.systemDefault()).toInstant();
  }
}
