package io.reliabilitylab.faults;

import static org.assertj.core.api.Assertions.assertThat;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.AlphaChars;
import net.jqwik.api.constraints.LongRange;

class FaultIdsProperties {

  @Property
  void anIdReadsBackItsParts(
      @ForAll @LongRange(min = 1, max = 1_000_000) long sequence,
      @ForAll("faultNames") String name) {
    String id = FaultIds.of(sequence, name);

    assertThat(FaultIds.isValid(id)).isTrue();
    assertThat(FaultIds.sequence(id)).isEqualTo(sequence);
    assertThat(FaultIds.faultName(id)).isEqualTo(name);
  }

  @Property
  void anIdIsFoundInAnyMessageThatCarriesItAndNotInOneThatCarriesAnother(
      @ForAll @LongRange(min = 1, max = 1_000_000) long sequence,
      @ForAll("faultNames") String name,
      @ForAll @AlphaChars String before,
      @ForAll @AlphaChars String after) {
    String id = FaultIds.of(sequence, name);
    String message = before + " [" + id + "] " + after;
    String other = FaultIds.of(sequence + 1, name);

    assertThat(FaultIds.mentionedIn(id, message)).isTrue();
    assertThat(FaultIds.findAll(message)).containsExactly(id);
    assertThat(FaultIds.mentionedIn(other, message)).isFalse();
  }

  @Provide
  Arbitrary<String> faultNames() {
    Arbitrary<String> word =
        Arbitraries.strings().withCharRange('a', 'z').ofMinLength(1).ofMaxLength(8);
    return word.list().ofMinSize(1).ofMaxSize(4).map(words -> String.join("-", words));
  }
}
