package io.reliabilitylab.pipeline.broker.source;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;

class PoisonBytesProperties {

  @Property
  void aPoisonValueIsNeverValidUtf8AndKeepsTheOriginalBytes(@ForAll byte[] original) {
    byte[] corrupted = ChangeEncoder.corrupt(original);

    assertThat(corrupted).hasSize(original.length + 2);
    assertThat(Arrays.copyOfRange(corrupted, 2, corrupted.length)).isEqualTo(original);
    assertThatThrownBy(
            () ->
                StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(corrupted)))
        .isInstanceOf(CharacterCodingException.class);
  }

  @Property
  void theDigestIsLowerCaseHexOfSha256(@ForAll byte[] bytes) {
    assertThat(ChangeEncoder.sha256Hex(bytes)).matches("[0-9a-f]{64}");
  }
}
