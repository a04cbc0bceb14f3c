package io.reliabilitylab.runner.phase;

import io.reliabilitylab.source.jdbc.CdcSource;
import io.reliabilitylab.source.jdbc.SourceServerProcess;
import io.reliabilitylab.spi.data.CommitConsistency;
import io.reliabilitylab.spi.data.DeliverySemantics;
import io.reliabilitylab.spi.pipeline.PipelineCapability;
import io.reliabilitylab.spi.pipeline.PipelineUnderTest;
import io.reliabilitylab.spi.pipeline.SourceProcessControl;
import java.time.Duration;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The pipeline as a fault sees it: what the pipeline offers, and what the lab offers beside it (the
 * source database's process, when the lab runs it: {@link SourceProcessControl}). Closing it closes
 * nothing: the scenario owns the pipeline.
 */
final class WithLabCapabilities implements PipelineUnderTest {

  private final PipelineUnderTest pipeline;
  private final SourceProcessControl sourceProcess;

  private WithLabCapabilities(PipelineUnderTest pipeline, SourceProcessControl sourceProcess) {
    this.pipeline = pipeline;
    this.sourceProcess = sourceProcess;
  }

  /** {@code pipeline}, with the lab's capabilities where the source gives any. */
  static PipelineUnderTest of(PipelineUnderTest pipeline, CdcSource source) {
    if (source instanceof SourceServerProcess server) {
      return new WithLabCapabilities(pipeline, new ServerControl(source, server));
    }
    return pipeline;
  }

  /** What the lab offers beside a pipeline on {@code source}, for planning. */
  static Set<Class<? extends PipelineCapability>> offeredFor(CdcSource source) {
    return source instanceof SourceServerProcess ? Set.of(SourceProcessControl.class) : Set.of();
  }

  @Override
  public String name() {
    return pipeline.name();
  }

  @Override
  public DeliverySemantics semantics() {
    return pipeline.semantics();
  }

  @Override
  public CommitConsistency commitConsistency() {
    return pipeline.commitConsistency();
  }

  @Override
  public Set<Class<? extends PipelineCapability>> capabilities() {
    Set<Class<? extends PipelineCapability>> offered = new HashSet<>(pipeline.capabilities());
    offered.add(SourceProcessControl.class);
    return Set.copyOf(offered);
  }

  @Override
  public <T extends PipelineCapability> Optional<T> capability(Class<T> type) {
    if (type == SourceProcessControl.class) {
      return Optional.of(type.cast(sourceProcess));
    }
    return pipeline.capability(type);
  }

  @Override
  public Map<String, String> effectiveConfiguration() {
    return pipeline.effectiveConfiguration();
  }

  @Override
  public Map<String, String> stackVersions() {
    return pipeline.stackVersions();
  }

  @Override
  public void close() {
    // the scenario closes the pipeline
  }

  /** The embedded server's process, as the SPI names it. */
  private record ServerControl(CdcSource source, SourceServerProcess server)
      implements SourceProcessControl {

    @Override
    public String serverDescription() {
      return source.kind() + " " + source.host() + ":" + source.port();
    }

    @Override
    public long serverPid() {
      return server.serverPid();
    }

    @Override
    public void kill(Duration timeout) throws InterruptedException {
      server.kill(timeout);
    }

    @Override
    public long restart() {
      return server.restart();
    }
  }
}
