package io.reliabilitylab.checks.sort;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.reliabilitylab.spi.data.CloseableIterator;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.stream.Stream;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import net.jqwik.api.lifecycle.AfterProperty;

class ExternalSorterProperties {

  /** A record whose sort key repeats, with its input index, so that stability is visible. */
  record Item(int key, int index) {}

  static final RecordCodec<Item> CODEC =
      new RecordCodec<>() {
        @Override
        public void write(DataOutput out, Item item) throws IOException {
          out.writeInt(item.key());
          out.writeInt(item.index());
        }

        @Override
        public Item read(DataInput in) throws IOException {
          return new Item(in.readInt(), in.readInt());
        }
      };

  private final Path work;

  ExternalSorterProperties() throws IOException {
    work = Files.createTempDirectory("srl-sorter-properties");
  }

  @AfterProperty
  void removeWorkDirectory() throws IOException {
    Files.deleteIfExists(work);
  }

  @Property(tries = 300)
  void externalSortEqualsStableInMemorySort(
      @ForAll @Size(max = 400) List<@IntRange(min = 0, max = 25) Integer> keys,
      @ForAll @IntRange(min = 1, max = 50) int maxInMemory,
      @ForAll @IntRange(min = 2, max = 6) int fanIn)
      throws IOException {
    List<Item> items = new ArrayList<>();
    for (int i = 0; i < keys.size(); i++) {
      items.add(new Item(keys.get(i), i));
    }
    Comparator<Item> byKey = Comparator.comparingInt(Item::key);
    List<Item> expected = new ArrayList<>(items);
    expected.sort(byKey);

    List<Item> sorted = new ArrayList<>();
    ExternalSorter<Item> sorter = ExternalSorter.of(CODEC, byKey, maxInMemory, work, fanIn);
    try (CloseableIterator<Item> out = sorter.sort(items.iterator())) {
      out.forEachRemaining(sorted::add);
    }

    assertThat(sorted).isEqualTo(expected);
    try (Stream<Path> left = Files.list(work)) {
      assertThat(left).as("spill files are deleted on close").isEmpty();
    }
  }

  @Property(tries = 100)
  void failingInputLeavesNoSpillFiles(
      @ForAll @IntRange(min = 1, max = 200) int failAfter,
      @ForAll @IntRange(min = 1, max = 20) int maxInMemory)
      throws IOException {
    var input =
        new Iterator<Item>() {
          int served;

          @Override
          public boolean hasNext() {
            return true;
          }

          @Override
          public Item next() {
            if (served == failAfter) {
              throw new IllegalStateException("input broke");
            }
            return new Item(-served, served++);
          }
        };
    ExternalSorter<Item> sorter =
        ExternalSorter.of(CODEC, Comparator.comparingInt(Item::key), maxInMemory, work);

    assertThatThrownBy(() -> sorter.sort(input)).hasMessage("input broke");
    try (Stream<Path> left = Files.list(work)) {
      assertThat(left).isEmpty();
    }
  }
}
