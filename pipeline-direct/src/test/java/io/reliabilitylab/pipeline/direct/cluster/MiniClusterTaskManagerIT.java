package io.reliabilitylab.pipeline.direct.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.reliabilitylab.pipeline.flink.cluster.MiniClusterRunner;
import io.reliabilitylab.pipeline.flink.cluster.MiniClusterSettings;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The MiniCluster runner's TaskManager ids are the ids the REST API shows, and terminating one by
 * id terminates exactly that TaskManager: the others stay registered.
 */
class MiniClusterTaskManagerIT {

  private static final Logger LOG = LoggerFactory.getLogger(MiniClusterTaskManagerIT.class);

  @Test
  void terminatesExactlyTheNamedTaskManagerAndRegistersReplacements() throws Exception {
    long started = System.nanoTime();
    try (MiniClusterRunner cluster =
        MiniClusterRunner.start(
            MiniClusterSettings.builder().taskManagers(3).slotsPerTaskManager(1).build())) {
      LOG.info(
          "3 TaskManagers up in {} ms", Duration.ofNanos(System.nanoTime() - started).toMillis());
      List<String> ids = cluster.taskManagerIds();
      assertThat(ids).hasSize(3).doesNotHaveDuplicates();
      assertThat(cluster.registeredTaskManagers()).containsExactlyInAnyOrderElementsOf(ids);

      // the middle one: a wrong index mapping would terminate a neighbour instead
      String victim = ids.get(1);
      cluster.terminateTaskManager(victim);
      awaitRegistered(cluster, Set.of(ids.get(0), ids.get(2)));
      assertThat(cluster.taskManagerIds()).containsExactly(ids.get(0), ids.get(2));

      long replacing = System.nanoTime();
      String replacement = cluster.startTaskManager();
      LOG.info(
          "Replacement registered in {} ms",
          Duration.ofNanos(System.nanoTime() - replacing).toMillis());
      assertThat(replacement).isNotIn(ids);
      assertThat(cluster.registeredTaskManagers())
          .containsExactlyInAnyOrder(ids.get(0), ids.get(2), replacement);
      assertThat(cluster.taskManagerIds()).containsExactly(ids.get(0), ids.get(2), replacement);

      cluster.terminateTaskManager(replacement);
      awaitRegistered(cluster, Set.of(ids.get(0), ids.get(2)));

      assertThatThrownBy(() -> cluster.terminateTaskManager(victim))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining(victim)
          .hasMessageContaining(ids.get(0));
    }
  }

  private static void awaitRegistered(MiniClusterRunner cluster, Set<String> expected)
      throws Exception {
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    Set<String> registered = cluster.registeredTaskManagers();
    while (!registered.equals(expected) && System.nanoTime() < deadline) {
      Thread.sleep(20);
      registered = cluster.registeredTaskManagers();
    }
    assertThat(registered).isEqualTo(expected);
  }
}
