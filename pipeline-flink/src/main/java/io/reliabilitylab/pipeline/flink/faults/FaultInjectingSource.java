package io.reliabilitylab.pipeline.flink.faults;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.nio.file.Path;
import java.util.Objects;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.connector.source.Boundedness;
import org.apache.flink.api.connector.source.Source;
import org.apache.flink.api.connector.source.SourceReader;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.api.connector.source.SourceSplit;
import org.apache.flink.api.connector.source.SplitEnumerator;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;
import org.apache.flink.api.java.typeutils.ResultTypeQueryable;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * A {@link Source} that delegates everything to another one and wraps its split enumerator in the
 * {@value FaultSwitchboard#SOURCE_ENUMERATOR} fault point: once armed, the enumerator fails on the
 * coordinator thread, which fails the job globally (a coordinator failure). Readers, splits and the
 * enumerator's checkpoints are the delegate's own, so state stays compatible with the bare source.
 *
 * <pre>{@code
 * env.fromSource(
 *     FaultInjectingSource.wrap(mySqlSource).withFaultChannel(settings.faultChannel()),
 *     WatermarkStrategy.noWatermarks(), "cdc");
 * }</pre>
 *
 * @param <T> the produced type
 * @param <SplitT> the delegate's split type
 * @param <EnumChkT> the delegate's enumerator checkpoint type
 */
@API(status = EXPERIMENTAL)
public final class FaultInjectingSource<T, SplitT extends SourceSplit, EnumChkT>
    implements Source<T, SplitT, EnumChkT>, ResultTypeQueryable<T> {

  private static final long serialVersionUID = 1L;

  private final Source<T, SplitT, EnumChkT> delegate;
  private final TypeInformation<T> producedType;
  private final @Nullable String faultChannel;

  private FaultInjectingSource(
      Source<T, SplitT, EnumChkT> delegate,
      TypeInformation<T> producedType,
      @Nullable String faultChannel) {
    this.delegate = delegate;
    this.producedType = producedType;
    this.faultChannel = faultChannel;
  }

  /**
   * This source, whose enumerator (on the JobManager) also watches the {@link FaultChannel} in
   * {@code faultChannel}; null: this JVM's {@link FaultSwitchboard} only.
   */
  public FaultInjectingSource<T, SplitT, EnumChkT> withFaultChannel(@Nullable Path faultChannel) {
    return new FaultInjectingSource<>(
        delegate,
        producedType,
        faultChannel == null ? null : faultChannel.toAbsolutePath().toString());
  }

  /** Wraps a source that knows its produced type (as Flink CDC's {@code MySqlSource} does). */
  public static <T, SplitT extends SourceSplit, EnumChkT, S extends Source<T, SplitT, EnumChkT>>
      FaultInjectingSource<T, SplitT, EnumChkT> wrap(S delegate) {
    Objects.requireNonNull(delegate, "delegate");
    if (!(delegate instanceof ResultTypeQueryable<?>)) {
      throw new IllegalArgumentException(
          delegate.getClass().getName()
              + " does not tell its produced type; use wrap(source, typeInformation)");
    }
    @SuppressWarnings("unchecked")
    TypeInformation<T> type = ((ResultTypeQueryable<T>) delegate).getProducedType();
    return new FaultInjectingSource<>(delegate, type, null);
  }

  /** Wraps a source that produces {@code producedType}. */
  public static <T, SplitT extends SourceSplit, EnumChkT>
      FaultInjectingSource<T, SplitT, EnumChkT> wrap(
          Source<T, SplitT, EnumChkT> delegate, TypeInformation<T> producedType) {
    return new FaultInjectingSource<>(
        Objects.requireNonNull(delegate, "delegate"),
        Objects.requireNonNull(producedType, "producedType"),
        null);
  }

  @Override
  public Boundedness getBoundedness() {
    return delegate.getBoundedness();
  }

  @Override
  public SourceReader<T, SplitT> createReader(SourceReaderContext readerContext) throws Exception {
    return delegate.createReader(readerContext);
  }

  @Override
  public SplitEnumerator<SplitT, EnumChkT> createEnumerator(
      SplitEnumeratorContext<SplitT> enumContext) throws Exception {
    FaultChannelWatcher.watch(faultChannel);
    return new FaultInjectingEnumerator<>(delegate.createEnumerator(enumContext), enumContext);
  }

  @Override
  public SplitEnumerator<SplitT, EnumChkT> restoreEnumerator(
      SplitEnumeratorContext<SplitT> enumContext, EnumChkT checkpoint) throws Exception {
    FaultChannelWatcher.watch(faultChannel);
    return new FaultInjectingEnumerator<>(
        delegate.restoreEnumerator(enumContext, checkpoint), enumContext);
  }

  @Override
  public SimpleVersionedSerializer<SplitT> getSplitSerializer() {
    return delegate.getSplitSerializer();
  }

  @Override
  public SimpleVersionedSerializer<EnumChkT> getEnumeratorCheckpointSerializer() {
    return delegate.getEnumeratorCheckpointSerializer();
  }

  @Override
  public TypeInformation<T> getProducedType() {
    return producedType;
  }
}
