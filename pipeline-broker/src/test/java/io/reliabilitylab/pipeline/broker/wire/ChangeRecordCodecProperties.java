package io.reliabilitylab.pipeline.broker.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.reliabilitylab.pipeline.flink.envelope.ChangeEnvelope;
import io.reliabilitylab.pipeline.flink.envelope.OrderImage;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Assume;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

class ChangeRecordCodecProperties {

  private static final ObjectMapper JSON = new ObjectMapper();

  @Provide
  Arbitrary<ChangeEnvelope> envelopes() {
    Arbitrary<String> ops = Arbitraries.of("r", "c", "u", "d");
    return Combinators.combine(
            ops,
            Arbitraries.longs(),
            images(),
            images(),
            text(),
            Arbitraries.longs(),
            Arbitraries.integers(),
            text().injectNull(0.3))
        .flatAs(
            (op, orderId, before, after, file, pos, row, gtid) ->
                Arbitraries.longs()
                    .map(
                        tsMillis ->
                            new ChangeEnvelope(
                                op,
                                op.equals("u") || op.equals("d") ? before.withId(orderId) : null,
                                op.equals("d") ? null : after.withId(orderId),
                                file,
                                pos,
                                row,
                                gtid,
                                tsMillis)));
  }

  /** An image without its order_id yet: u needs the same one in both images. */
  record ImageTemplate(
      String businessKey,
      Long customerId,
      Long amountCents,
      String status,
      Long eventId,
      Integer seed,
      Long updatedAtMicros) {
    OrderImage withId(long orderId) {
      return new OrderImage(
          orderId, businessKey, customerId, amountCents, status, eventId, seed, updatedAtMicros);
    }
  }

  Arbitrary<ImageTemplate> images() {
    Arbitrary<Long> longs = Arbitraries.longs().injectNull(0.1);
    Arbitrary<Long> micros =
        Arbitraries.oneOf(
                Arbitraries.longs(),
                Arbitraries.longs().map(m -> m / 1_000 * 1_000),
                Arbitraries.longs().between(0L, 4_102_444_800_000_000L))
            .injectNull(0.1);
    return Combinators.combine(
            text().injectNull(0.1),
            longs,
            longs,
            text().injectNull(0.1),
            longs,
            Arbitraries.integers().injectNull(0.1),
            micros)
        .as(ImageTemplate::new);
  }

  /** Valid Unicode text: any BMP character but surrogates, and some supplementary ones. */
  static Arbitrary<String> text() {
    Arbitrary<String> bmp =
        Arbitraries.strings()
            .withCharRange('\u0000', '\uD7FF')
            .withCharRange('\uE000', '\uFFFF')
            .ofMaxLength(16);
    Arbitrary<String> supplementary =
        Arbitraries.integers()
            .between(Character.MIN_SUPPLEMENTARY_CODE_POINT, Character.MAX_CODE_POINT)
            .list()
            .ofMaxSize(4)
            .map(
                codePoints -> {
                  StringBuilder text = new StringBuilder();
                  codePoints.forEach(text::appendCodePoint);
                  return text.toString();
                });
    return Arbitraries.oneOf(bmp, supplementary);
  }

  @Property(tries = 2000)
  void encodeThenDecodeGivesTheSameEnvelope(@ForAll("envelopes") ChangeEnvelope envelope)
      throws InvalidChangeRecordException {
    WireRecord wire = ChangeRecordCodec.encode(envelope);

    assertThat(ChangeRecordCodec.decode(wire.key(), wire.value()))
        .isEqualTo(new ChangeRecord.Change(envelope));
  }

  @Property
  void aLeadingInvalidUtf8SequenceIsRefused(@ForAll("envelopes") ChangeEnvelope envelope) {
    WireRecord wire = ChangeRecordCodec.encode(envelope);
    byte[] value = wire.value();
    byte[] poison = new byte[value.length + 2];
    poison[0] = (byte) 0xC3;
    poison[1] = (byte) 0x28;
    System.arraycopy(value, 0, poison, 2, value.length);

    assertThat(refusal(wire.key(), poison).error()).isEqualTo(ChangeRecordError.INVALID_UTF8);
  }

  @Property
  void aTruncatedValueIsRefused(
      @ForAll("envelopes") ChangeEnvelope envelope,
      @ForAll @IntRange(min = 0, max = 100_000) int cut) {
    WireRecord wire = ChangeRecordCodec.encode(envelope);
    byte[] value = wire.value();
    byte[] truncated = Arrays.copyOf(value, cut % value.length);

    // a cut inside a multi-byte character leaves invalid UTF-8, any other cut an unclosed object
    ChangeRecordError expected =
        isUtf8(truncated) ? ChangeRecordError.MALFORMED_JSON : ChangeRecordError.INVALID_UTF8;
    assertThat(refusal(wire.key(), truncated).error()).isEqualTo(expected);
  }

  @Property
  void anUnknownOpIsRefused(@ForAll("envelopes") ChangeEnvelope envelope) throws Exception {
    WireRecord wire = ChangeRecordCodec.encode(envelope);
    ObjectNode tree = (ObjectNode) JSON.readTree(wire.value());
    tree.put("op", "x");

    assertThat(refusal(wire.key(), JSON.writeValueAsBytes(tree)).error())
        .isEqualTo(ChangeRecordError.UNKNOWN_OP);
  }

  @Property
  void aKeyOfAnotherRowIsRefused(
      @ForAll("envelopes") ChangeEnvelope envelope, @ForAll long otherOrderId) {
    Assume.that(otherOrderId != envelope.image().orderId());
    WireRecord wire = ChangeRecordCodec.encode(envelope);

    assertThat(refusal(ChangeRecordCodec.encodeKey(otherOrderId), wire.value()).error())
        .isEqualTo(ChangeRecordError.KEY_MISMATCH);
  }

  private static InvalidChangeRecordException refusal(byte[] key, byte[] value) {
    InvalidChangeRecordException e =
        catchThrowableOfType(
            InvalidChangeRecordException.class, () -> ChangeRecordCodec.decode(key, value));
    assertThat(e).as("the corrupted record must be refused").isNotNull();
    return e;
  }

  private static boolean isUtf8(byte[] bytes) {
    try {
      StandardCharsets.UTF_8
          .newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(bytes));
      return true;
    } catch (CharacterCodingException e) {
      return false;
    }
  }
}
