package io.reliabilitylab.checks.sort;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.reliabilitylab.spi.data.ChangeEvent;
import io.reliabilitylab.spi.data.Changelog;
import io.reliabilitylab.spi.data.CloseableIterator;
import io.reliabilitylab.spi.data.KeyRangeDigests;
import io.reliabilitylab.spi.data.KeyShard;
import io.reliabilitylab.spi.data.Row;
import io.reliabilitylab.spi.data.RowSet;
import io.reliabilitylab.spi.data.TableHistory;
import io.reliabilitylab.spi.data.TableSchema;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Optional;
import java.util.function.Supplier;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * An input that several checks read, read from its store once: the first read that runs to the end
 * is copied into a file beside it, and every later read comes from the copy. Each check plans and
 * reads an Iceberg snapshot on its own otherwise (manifests, delete files, data files), several
 * times per reconciliation, for the same immutable rows. A read closed before its end leaves no
 * copy, so the next read goes to the store again; digests are always computed by the store.
 */
@API(status = EXPERIMENTAL)
public final class ReadOnce<T> {

  private final Supplier<CloseableIterator<T>> store;
  private final RecordCodec<T> codec;
  private final Path file;
  private boolean copied;
  private boolean copying;

  private ReadOnce(Supplier<CloseableIterator<T>> store, RecordCodec<T> codec, Path file) {
    this.store = store;
    this.codec = codec;
    this.file = file;
  }

  /**
   * The rows of {@code rows}, read from their store once; the copy lives until {@code copies} is
   * closed.
   */
  public static RowSet rows(RowSet rows, Copies copies) {
    ReadOnce<Row> once = copies.add(rows::open, RowCodec.of(rows.schema()));
    return new RowSet() {
      @Override
      public TableSchema schema() {
        return rows.schema();
      }

      @Override
      public String description() {
        return rows.description();
      }

      @Override
      public CloseableIterator<Row> open() {
        return once.open();
      }

      @Override
      public Optional<KeyRangeDigests> keyRangeDigests() {
        return rows.keyRangeDigests();
      }

      @Override
      public Optional<TableHistory<Row>> history(KeyShard shard) {
        return rows.history(shard);
      }
    };
  }

  /** The events of {@code changelog}, read from their store once. */
  public static Changelog changelog(Changelog changelog, Copies copies) {
    ReadOnce<ChangeEvent> once =
        copies.add(changelog::open, ChangeEventCodec.of(changelog.schema()));
    return new Changelog() {
      @Override
      public TableSchema schema() {
        return changelog.schema();
      }

      @Override
      public String description() {
        return changelog.description();
      }

      @Override
      public CloseableIterator<ChangeEvent> open() {
        return once.open();
      }

      @Override
      public Optional<TableHistory<ChangeEvent>> history(KeyShard shard) {
        return changelog.history(shard);
      }
    };
  }

  /** The copies of one reconciliation's inputs, in one directory, deleted together. */
  @API(status = EXPERIMENTAL)
  public static final class Copies implements AutoCloseable {
    private final Path directory;
    private final List<ReadOnce<?>> inputs = new ArrayList<>();

    public Copies(Path directory) {
      this.directory = directory;
    }

    private synchronized <T> ReadOnce<T> add(
        Supplier<CloseableIterator<T>> store, RecordCodec<T> codec) {
      try {
        Files.createDirectories(directory);
        ReadOnce<T> once =
            new ReadOnce<>(store, codec, Files.createTempFile(directory, "input-", ".copy"));
        inputs.add(once);
        return once;
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    @Override
    public synchronized void close() {
      inputs.forEach(ReadOnce::close);
      inputs.clear();
    }
  }

  private synchronized CloseableIterator<T> open() {
    if (copied) {
      return readCopy();
    }
    CloseableIterator<T> source = store.get();
    if (copying) {
      // a second reader while the first still copies: it reads the store too
      return source;
    }
    copying = true;
    try {
      return new Copying(source);
    } catch (IOException e) {
      copying = false;
      source.close();
      throw new UncheckedIOException(e);
    }
  }

  private synchronized void copyEnded(boolean complete) {
    copying = false;
    copied = complete;
  }

  private CloseableIterator<T> readCopy() {
    DataInputStream in;
    try {
      in = new DataInputStream(new BufferedInputStream(Files.newInputStream(file), 1 << 16));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return new CloseableIterator<>() {
      private @Nullable T next;
      private boolean ended;

      @Override
      public boolean hasNext() {
        if (next == null && !ended) {
          try {
            if (in.readBoolean()) {
              next = codec.read(in);
            } else {
              ended = true;
            }
          } catch (IOException e) {
            throw new UncheckedIOException("reading the copy " + file + " failed", e);
          }
        }
        return next != null;
      }

      @Override
      public T next() {
        if (!hasNext()) {
          throw new NoSuchElementException();
        }
        T record = next;
        next = null;
        return record;
      }

      @Override
      public void close() {
        try {
          in.close();
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      }
    };
  }

  /** Reads the store and writes every record it hands out into the copy. */
  private final class Copying implements CloseableIterator<T> {
    private final CloseableIterator<T> source;
    private final DataOutputStream out;
    private boolean ended;

    Copying(CloseableIterator<T> source) throws IOException {
      this.source = source;
      this.out =
          new DataOutputStream(new BufferedOutputStream(Files.newOutputStream(file), 1 << 16));
    }

    @Override
    public boolean hasNext() {
      boolean more = source.hasNext();
      if (!more && !ended) {
        ended = true;
        try {
          out.writeBoolean(false);
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      }
      return more;
    }

    @Override
    public T next() {
      T record = source.next();
      try {
        out.writeBoolean(true);
        codec.write(out, record);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      return record;
    }

    @Override
    public void close() {
      try (source) {
        out.close();
      } catch (IOException e) {
        ended = false;
        throw new UncheckedIOException(e);
      } finally {
        copyEnded(ended);
      }
    }
  }

  private void close() {
    try {
      Files.deleteIfExists(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
