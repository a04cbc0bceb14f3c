package io.reliabilitylab.junit;

import io.reliabilitylab.source.mysql.SourceDatabase;
import java.util.Objects;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * What the scenarios of one test class share: the plugins discovered once, and the source database,
 * opened by the first scenario that runs and closed when the class's extension store closes.
 */
final class LabResources implements AutoCloseable {

  private final LabPlugins plugins;
  private final Supplier<? extends SourceDatabase> opener;
  private @Nullable SourceDatabase source;
  private boolean closed;

  LabResources(LabPlugins plugins, Supplier<? extends SourceDatabase> opener) {
    this.plugins = Objects.requireNonNull(plugins, "plugins");
    this.opener = Objects.requireNonNull(opener, "opener");
  }

  LabPlugins plugins() {
    return plugins;
  }

  /** The source database, opened on first use. */
  synchronized SourceDatabase source() {
    if (closed) {
      throw new IllegalStateException(
          "The lab's resources of this test class are closed; run scenarios from its tests");
    }
    if (source == null) {
      source = Objects.requireNonNull(opener.get(), "the source supplier returned null");
    }
    return source;
  }

  /** Closes the source if it was opened: an embedded one stops, the shared one stays up. */
  @Override
  public synchronized void close() {
    closed = true;
    if (source != null) {
      source.close();
    }
  }
}
