package io.reliabilitylab.spi.data;

import static org.assertj.core.api.Assertions.assertThat;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.LongRange;

/** Buckets of a key range partition it: every key lies in exactly the bucket its index names. */
class KeyRangeProperties {

  @Property(tries = 1_000)
  void everyKeyLiesInTheBucketOfItsIndexAndNoOther(
      @ForAll @LongRange(min = Long.MIN_VALUE / 2, max = Long.MAX_VALUE / 2) long first,
      @ForAll @LongRange(min = 0, max = 1_000_000_000_000L) long span,
      @ForAll @LongRange(min = 1, max = 1_000_000_000_000L) long width,
      @ForAll @LongRange(min = 0, max = 1_000_000_000_000L) long offset) {
    KeyRange range = new KeyRange(first, first + span);
    long key = first + Math.min(offset, span);

    long index = range.bucketOf(key, width);
    KeyRange bucket = range.bucket(width, index);

    assertThat(bucket.contains(key)).isTrue();
    assertThat(bucket.last()).isLessThanOrEqualTo(range.last());
    assertThat(bucket.width()).isLessThanOrEqualTo(width);
    if (bucket.last() < range.last()) {
      assertThat(bucket.width()).as("only the last bucket is narrower").isEqualTo(width);
      assertThat(range.bucket(width, index + 1).first()).isEqualTo(bucket.last() + 1);
    }
  }
}
