package io.reliabilitylab.pipeline.broker.source;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class OffsetFilesTest {

  private static final String KEY = "[\"srl-debezium\",{\"server\":\"lab\"}]";
  private static final String OFFSET =
      "{\"file\":\"mysql-bin.000001\",\"pos\":4468,\"gtids\":\"0-1-18\",\"row\":1,\"event\":2}";

  @TempDir Path dir;

  @Test
  void readsWhatTheFileOffsetStoreWrites() throws IOException {
    Path file = dir.resolve("offsets.dat");
    Files.write(file, serialize(storeMap(Map.of(KEY, OFFSET))));

    assertThat(OffsetFiles.read(file)).containsExactly(Map.entry(KEY, OFFSET));
  }

  @Test
  void copiesWholeFilesAtomically() throws IOException {
    Path file = dir.resolve("offsets.dat");
    byte[] content = serialize(storeMap(Map.of(KEY, OFFSET)));
    Files.write(file, content);
    Path copy = dir.resolve("copy.dat");

    assertThat(OffsetFiles.copy(file, copy)).containsEntry(KEY, OFFSET);
    assertThat(Files.readAllBytes(copy)).isEqualTo(content);
    assertThat(dir.resolve("copy.dat.partial")).doesNotExist();
  }

  @Test
  void refusesTruncatedFilesAndOtherObjects() throws IOException {
    byte[] content = serialize(storeMap(Map.of(KEY, OFFSET)));
    assertThatThrownBy(() -> OffsetFiles.parse(Arrays.copyOf(content, content.length / 2)))
        .isInstanceOf(IOException.class);
    assertThatThrownBy(() -> OffsetFiles.parse(serialize(new ArrayList<>(List.of("x")))))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("Not an offset file");

    Path torn = dir.resolve("torn.dat");
    Files.write(torn, Arrays.copyOf(content, 10));
    assertThatThrownBy(() -> OffsetFiles.copy(torn, dir.resolve("copy.dat")))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("did not read whole");
  }

  @Test
  void showsRemovedOffsetsAsNull() throws IOException {
    HashMap<byte[], byte[]> map = new HashMap<>();
    map.put(KEY.getBytes(StandardCharsets.UTF_8), null);
    assertThat(OffsetFiles.parse(serialize(map))).containsEntry(KEY, "null");
  }

  /** What Kafka Connect's FileOffsetBackingStore serializes: a HashMap of byte arrays. */
  private static HashMap<byte[], byte[]> storeMap(Map<String, String> offsets) {
    HashMap<byte[], byte[]> map = new HashMap<>();
    offsets.forEach(
        (key, value) ->
            map.put(key.getBytes(StandardCharsets.UTF_8), value.getBytes(StandardCharsets.UTF_8)));
    return map;
  }

  private static byte[] serialize(Object object) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
      out.writeObject(object);
    }
    return bytes.toByteArray();
  }
}
