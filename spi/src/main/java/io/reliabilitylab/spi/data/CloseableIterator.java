package io.reliabilitylab.spi.data;

import static org.apiguardian.api.API.Status.STABLE;

import java.util.Iterator;
import org.apiguardian.api.API;

/** An iterator over a stream that holds a resource (a file, a JDBC cursor, an Iceberg scan). */
@API(status = STABLE)
public interface CloseableIterator<T> extends Iterator<T>, AutoCloseable {

  /** Releases the resource; unchecked, so that callers can use try-with-resources freely. */
  @Override
  void close();

  /** This iterator, closing {@code resource} too once it is closed (this first). */
  default CloseableIterator<T> closingAlso(AutoCloseable resource) {
    CloseableIterator<T> self = this;
    return new CloseableIterator<>() {
      @Override
      public boolean hasNext() {
        return self.hasNext();
      }

      @Override
      public T next() {
        return self.next();
      }

      @Override
      public void close() {
        try (resource) {
          self.close();
        } catch (RuntimeException e) {
          throw e;
        } catch (Exception e) {
          throw new IllegalStateException("Closing " + resource + " failed", e);
        }
      }
    };
  }

  /** An iterator over an in-memory collection. */
  static <T> CloseableIterator<T> of(Iterable<T> items) {
    Iterator<T> delegate = items.iterator();
    return new CloseableIterator<>() {
      @Override
      public boolean hasNext() {
        return delegate.hasNext();
      }

      @Override
      public T next() {
        return delegate.next();
      }

      @Override
      public void close() {}
    };
  }
}
