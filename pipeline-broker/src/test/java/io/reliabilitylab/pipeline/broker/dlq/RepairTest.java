package io.reliabilitylab.pipeline.broker.dlq;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import io.reliabilitylab.pipeline.broker.wire.ChangeRecord;
import io.reliabilitylab.pipeline.broker.wire.ChangeRecordCodec;
import io.reliabilitylab.pipeline.broker.wire.WireRecord;
import io.reliabilitylab.pipeline.flink.envelope.ChangeEnvelope;
import io.reliabilitylab.pipeline.flink.envelope.OrderImage;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class RepairTest {

  static final ChangeEnvelope CHANGE =
      new ChangeEnvelope(
          "c",
          null,
          new OrderImage(
              9300304, "b3-order-9300304", 305L, 10304L, "paid", 3000304L, 304, 1787231905466000L),
          "mysql-bin.000002",
          4711L,
          0,
          "0-1-17",
          1787231905466L);
  static final WireRecord WIRE = ChangeRecordCodec.encode(CHANGE);

  static byte[] prefixed(byte[] prefix, byte[] value) {
    byte[] bytes = new byte[prefix.length + value.length];
    System.arraycopy(prefix, 0, bytes, 0, prefix.length);
    System.arraycopy(value, 0, bytes, prefix.length, value.length);
    return bytes;
  }

  static DeadLetter letter(byte[] key, byte[] value) {
    return DeadLetter.of(
        "lab.lab.orders", 1, 3L, 4L, key, value, "invalid-utf8", "m", Instant.EPOCH);
  }

  @Test
  void recoversTheLabsPoison() throws Exception {
    byte[] poison = prefixed(new byte[] {(byte) 0xC3, 0x28}, WIRE.value());

    RepairOutcome outcome = Repair.repair(letter(WIRE.key(), poison));

    assertThat(outcome).isInstanceOf(RepairOutcome.Repaired.class);
    RepairOutcome.Repaired repaired = (RepairOutcome.Repaired) outcome;
    assertThat(repaired.envelope()).isEqualTo(CHANGE);
    assertThat(repaired.strippedPrefixBytes()).isEqualTo(2);
    assertThat(repaired.keyVerified()).isTrue();
    assertThat(repaired.record()).isEqualTo(WIRE);
    assertThat(ChangeRecordCodec.decode(repaired.record().key(), repaired.record().value()))
        .isEqualTo(new ChangeRecord.Change(CHANGE));
  }

  @Test
  void recoversFromTheDeadLetterJsonToo() {
    byte[] json =
        DeadLetterCodec.encode(
            letter(WIRE.key(), prefixed("\u0000junk".getBytes(UTF_8), WIRE.value())));

    assertThat(Repair.repair(json))
        .isInstanceOfSatisfying(
            RepairOutcome.Repaired.class, r -> assertThat(r.strippedPrefixBytes()).isEqualTo(5));
  }

  @Test
  void aValidRecordNeedsNoStripping() {
    assertThat(Repair.repair(letter(WIRE.key(), WIRE.value())))
        .isInstanceOfSatisfying(
            RepairOutcome.Repaired.class, r -> assertThat(r.strippedPrefixBytes()).isZero());
  }

  @Test
  void withoutAReadableKeyThePrimaryKeyOfTheChangeBecomesTheKey() {
    byte[] poison = prefixed(new byte[] {(byte) 0xC3, 0x28}, WIRE.value());

    for (byte[] key : new byte[][] {null, {(byte) 0xFF}}) {
      assertThat(Repair.repair(letter(key, poison)))
          .isInstanceOfSatisfying(
              RepairOutcome.Repaired.class,
              r -> {
                assertThat(r.keyVerified()).isFalse();
                assertThat(new String(r.record().key(), UTF_8)).isEqualTo("{\"order_id\":9300304}");
              });
    }
  }

  @Test
  void saysWhyWhenNothingCanBeRecovered() {
    byte[] value = WIRE.value();
    byte[] truncated = java.util.Arrays.copyOf(value, value.length - 3);
    byte[] braceInJunk = prefixed("{junk".getBytes(UTF_8), value);

    assertUnrepairable(letter(WIRE.key(), null), null, "holds no original value");
    assertUnrepairable(
        letter(WIRE.key(), new byte[] {(byte) 0xC3, 0x28}), "malformed-json", "hold no '{'");
    assertUnrepairable(
        letter(WIRE.key(), prefixed(new byte[] {(byte) 0xC3, 0x28}, truncated)),
        "malformed-json",
        "after dropping 2 leading byte(s), the original value is still not a valid change");
    assertUnrepairable(letter(WIRE.key(), braceInJunk), "malformed-json", "after dropping 0");
    assertUnrepairable(
        letter(ChangeRecordCodec.encodeKey(1), value), "key-mismatch", "differs from the original");
    assertThat(Repair.repair("[]".getBytes(UTF_8)))
        .isInstanceOfSatisfying(
            RepairOutcome.Unrepairable.class,
            u -> assertThat(u.reason()).startsWith("the dead letter is unreadable"));
  }

  private static void assertUnrepairable(DeadLetter letter, String errorType, String reason) {
    assertThat(Repair.repair(letter))
        .isInstanceOfSatisfying(
            RepairOutcome.Unrepairable.class,
            u -> {
              assertThat(u.errorType()).isEqualTo(errorType);
              assertThat(u.reason()).contains(reason);
            });
  }
}
