package io.reliabilitylab.checks.iceberg;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Map;
import org.apache.iceberg.CatalogProperties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JvmLockManagerTest {

  @TempDir Path temp;

  @Test
  void theLabsCatalogsLockWithIt() {
    assertThat(IcebergWarehouse.catalogProperties(temp))
        .containsEntry(CatalogProperties.LOCK_IMPL, JvmLockManager.class.getName());
  }

  @Test
  void oneOwnerHoldsAnEntityUntilItReleasesIt() {
    JvmLockManager first = manager();
    JvmLockManager second = manager();
    String entity = "table-" + System.nanoTime();

    assertThat(first.acquire(entity, "a")).isTrue();
    assertThat(first.acquire(entity, "a")).as("re-entrant for its owner").isTrue();
    assertThat(second.acquire(entity, "b")).as("held by a, across managers").isFalse();
    assertThat(second.release(entity, "b")).as("b cannot release a's lock").isFalse();
    first.close(); // closing a manager releases nothing and breaks nothing
    assertThat(first.release(entity, "a")).isTrue();
    assertThat(second.acquire(entity, "b")).isTrue();
    assertThat(second.release(entity, "b")).isTrue();
  }

  private static JvmLockManager manager() {
    JvmLockManager manager = new JvmLockManager();
    manager.initialize(Map.of(CatalogProperties.LOCK_ACQUIRE_TIMEOUT_MS, "100"));
    return manager;
  }
}
