package io.reliabilitylab.checks;

import io.reliabilitylab.spi.data.CloseableIterator;
import java.util.Iterator;
import java.util.NoSuchElementException;
import org.jspecify.annotations.Nullable;

/** An iterator that can look at its next element without taking it: for merge-joins. */
final class Peeking<T> implements CloseableIterator<T> {

  private final Iterator<T> delegate;
  private final AutoCloseable resource;
  private @Nullable T next;

  private Peeking(Iterator<T> delegate, AutoCloseable resource) {
    this.delegate = delegate;
    this.resource = resource;
  }

  static <T> Peeking<T> of(CloseableIterator<T> delegate) {
    return new Peeking<>(delegate, delegate);
  }

  static <T> Peeking<T> of(Iterator<T> delegate) {
    return new Peeking<>(delegate, () -> {});
  }

  @Override
  public boolean hasNext() {
    return next != null || delegate.hasNext();
  }

  /** The next element, or null at the end. */
  @Nullable T peek() {
    if (next == null && delegate.hasNext()) {
      next = delegate.next();
    }
    return next;
  }

  @Override
  public T next() {
    T value = peek();
    if (value == null) {
      throw new NoSuchElementException();
    }
    next = null;
    return value;
  }

  @Override
  public void close() {
    try {
      resource.close();
    } catch (RuntimeException e) {
      throw e;
    } catch (Exception e) {
      throw new IllegalStateException("Closing an input failed", e);
    }
  }
}
