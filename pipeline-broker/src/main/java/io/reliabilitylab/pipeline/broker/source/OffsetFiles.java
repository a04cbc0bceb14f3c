package io.reliabilitylab.pipeline.broker.source;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InvalidClassException;
import java.io.ObjectInputFilter;
import java.io.ObjectInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;

/**
 * Reads and copies the offset file of Kafka Connect's {@code FileOffsetBackingStore}: a Java-
 * serialized {@code HashMap<byte[], byte[]>} of JSON keys (engine name and source partition) to
 * JSON offsets. The store rewrites the file in place from its own thread, so a copy is checked to
 * deserialize before it is kept.
 */
final class OffsetFiles {

  /**
   * Only a map of byte arrays may be read back: nothing else belongs in an offset file ({@code
   * Map$Entry} is the array type HashMap checks its capacity against).
   */
  private static final ObjectInputFilter ONLY_BYTE_MAPS =
      ObjectInputFilter.Config.createFilter(
          "maxdepth=3;java.util.HashMap;java.util.Map$Entry;[B;!*");

  private static final int COPY_ATTEMPTS = 40;

  private OffsetFiles() {}

  /** The offsets a file holds: per source partition (JSON) the offset (JSON), sorted by key. */
  static Map<String, String> read(Path file) throws IOException {
    return parse(Files.readAllBytes(file));
  }

  static Map<String, String> parse(byte[] content) throws IOException {
    try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(content))) {
      in.setObjectInputFilter(ONLY_BYTE_MAPS);
      Object read = in.readObject();
      if (!(read instanceof Map<?, ?> map)) {
        throw new IOException("An offset file holds a map, this one a " + read.getClass());
      }
      Map<String, String> offsets = new TreeMap<>();
      for (Map.Entry<?, ?> entry : map.entrySet()) {
        offsets.put(text(entry.getKey()), text(entry.getValue()));
      }
      return offsets;
    } catch (ClassNotFoundException | InvalidClassException e) {
      throw new IOException("Not an offset file: " + e.getMessage(), e);
    }
  }

  /**
   * Copies an offset file whole: reads it until its bytes deserialize (the store may be rewriting
   * it), writes the copy atomically and returns what it holds.
   */
  static Map<String, String> copy(Path from, Path to) throws IOException {
    IOException last = null;
    for (int attempt = 0; attempt < COPY_ATTEMPTS; attempt++) {
      byte[] content = Files.readAllBytes(from);
      try {
        Map<String, String> offsets = parse(content);
        Path partial = to.resolveSibling(to.getFileName() + ".partial");
        Files.write(partial, content);
        Files.move(
            partial, to, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        return offsets;
      } catch (IOException e) {
        last = e;
        try {
          TimeUnit.MILLISECONDS.sleep(25);
        } catch (InterruptedException interrupted) {
          Thread.currentThread().interrupt();
          throw new IOException("Interrupted while copying " + from, interrupted);
        }
      }
    }
    throw new IOException(
        "The offset file " + from + " did not read whole in " + COPY_ATTEMPTS + " attempts", last);
  }

  private static String text(@Nullable Object bytes) throws IOException {
    if (bytes == null) {
      return "null"; // a removed offset
    }
    if (!(bytes instanceof byte[] array)) {
      throw new IOException("An offset file maps byte arrays, found a " + bytes.getClass());
    }
    return new String(array, StandardCharsets.UTF_8);
  }
}
