package io.reliabilitylab.spi.secret;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.AlphaChars;
import net.jqwik.api.constraints.NumericChars;
import net.jqwik.api.constraints.StringLength;

class RedactorProperties {

  @Property(tries = 300)
  void aPasswordNeverSurvivesInAnyPlaceItIsCommonlyGiven(
      @ForAll @AlphaChars @NumericChars @StringLength(min = 6, max = 24) String password,
      @ForAll @AlphaChars @StringLength(min = 1, max = 8) String user) {
    List<String> texts =
        List.of(
            "jdbc:mysql://db:3306/lab?user=" + user + "&password=" + password,
            "jdbc:mysql://" + user + ":" + password + "@db:3306/lab",
            "source.password=" + password,
            "--source-password " + password,
            "--source-password=" + password,
            "-Dsource.password=" + password);

    for (String text : texts) {
      assertThat(Redactor.redact(text)).as(text).doesNotContain(password);
    }
    assertThat(Redactor.commandLine(List.of("lab", "run", "--source-password", password, "-v")))
        .doesNotContain(password);
  }

  @Property(tries = 300)
  void aShortWordLikeSecretIsMaskedAsAValueAndLeftAloneInWordsAndSentences(
      @ForAll("wordsAndNumbers") String secret,
      @ForAll @AlphaChars @StringLength(min = 1, max = 6) String before,
      @ForAll @AlphaChars @StringLength(min = 1, max = 6) String after) {
    Redactor.clearRegistered();
    try {
      Redactor.register(secret);
      String words =
          before
              + secret
              + " "
              + before
              + "."
              + secret
              + "_"
              + after
              + " "
              + secret
              + after
              + " the "
              + secret
              + " connects to jdbc:mysql://db/"
              + secret;

      assertThat(Redactor.redactRegistered(words)).isEqualTo(words);
      assertThat(Redactor.redactRegistered("password '" + secret + "' for " + before + secret))
          .isEqualTo("password '***' for " + before + secret);
      assertThat(Redactor.redactRegistered(secret)).isEqualTo("***");
      assertThat(Redactor.redactRegistered(before + "=" + secret + "&" + after + ": " + secret))
          .isEqualTo(before + "=***&" + after + ": ***");
      assertThat(Redactor.redactRegistered("jdbc:mysql://" + before + ":" + secret + "@db/x"))
          .isEqualTo("jdbc:mysql://" + before + ":***@db/x");
    } finally {
      Redactor.clearRegistered();
    }
  }

  @Provide
  Arbitrary<String> wordsAndNumbers() {
    return Arbitraries.oneOf(
        Arbitraries.strings().alpha().ofMinLength(1).ofMaxLength(11),
        Arbitraries.strings().numeric().ofMinLength(1).ofMaxLength(11));
  }

  @Property(tries = 200)
  void aShortMixedSecretIsMaskedWhereverItStandsAsAToken(
      @ForAll @AlphaChars @StringLength(min = 1, max = 5) String letters,
      @ForAll @NumericChars @StringLength(min = 1, max = 5) String digits) {
    Redactor.clearRegistered();
    try {
      String secret = letters + digits;
      Redactor.register(secret);

      assertThat(Redactor.redactRegistered("the " + secret + " connects; x" + secret))
          .isEqualTo("the *** connects; x" + secret);
    } finally {
      Redactor.clearRegistered();
    }
  }

  @Property(tries = 300)
  void redactingTwiceChangesNothingMore(@ForAll @StringLength(max = 80) String text) {
    String once = Redactor.redact(text);

    assertThat(Redactor.redact(once)).isEqualTo(once);
  }
}
