package io.reliabilitylab.spi.secret;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class RedactorTest {

  @AfterEach
  void forgetRegisteredSecrets() {
    Redactor.clearRegistered();
  }

  @Nested
  class JdbcUrls {
    @ParameterizedTest(name = "{0}")
    @CsvSource(
        delimiter = '|',
        value = {
          "jdbc:mysql://db:3306/lab?user=lab&password=hunter2&useSSL=false"
              + "|jdbc:mysql://db:3306/lab?user=lab&password=***&useSSL=false",
          "jdbc:mysql://db/lab?PWD=hunter2|jdbc:mysql://db/lab?PWD=***",
          "jdbc:mysql://lab:hunter2@db:3306/lab|jdbc:mysql://lab:***@db:3306/lab",
          "jdbc:mariadb://lab:hunter2@db/lab?sslMode=trust|jdbc:mariadb://lab:***@db/lab?sslMode=trust",
          "jdbc:sqlserver://db:1433;user=sa;password=hunter2;encrypt=true"
              + "|jdbc:sqlserver://db:1433;user=sa;password=***;encrypt=true",
          "jdbc:postgresql://db/lab?user=lab&client_secret=abc123"
              + "|jdbc:postgresql://db/lab?user=lab&client_secret=***",
          "jdbc:mysql://db/lab?user=lab&accessToken=abc123|jdbc:mysql://db/lab?user=lab&accessToken=***",
          "s3://AKIAEXAMPLE:wJalrXUtnFEMI@bucket/warehouse|s3://AKIAEXAMPLE:***@bucket/warehouse",
        })
    void hideThePasswordAndKeepTheRest(String url, String expected) {
      assertThat(Redactor.redact(url)).isEqualTo(expected);
    }
  }

  @Nested
  class Properties {
    @ParameterizedTest(name = "{0}")
    @CsvSource(
        delimiter = '|',
        value = {
          "source.password=hunter2|source.password=***",
          "SOURCE_PASSWORD=hunter2|SOURCE_PASSWORD=***",
          "database.passwd = hunter2|database.passwd = ***",
          "db.pwd: hunter2|db.pwd: ***",
          "catalog.client-secret=abc123|catalog.client-secret=***",
          "rest.token=abc123|rest.token=***",
          "aws.credentials=abc123|aws.credentials=***",
          "schema.registry.api-key=abc123|schema.registry.api-key=***",
          "x.API_KEY=abc123|x.API_KEY=***",
          "'\"password\": \"hunter2\", \"user\": \"lab\"'|'\"password\": \"***\", \"user\": \"lab\"'",
          "'{source.password=hunter2, source.user=lab}'|'{source.password=***, source.user=lab}'",
        })
    void hideTheValueOfASecretKey(String text, String expected) {
      assertThat(Redactor.redact(text)).isEqualTo(expected);
    }

    @Test
    void aJaasConfigurationHidesItsPassword() {
      String jaas =
          "sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required"
              + " username=\"lab\" password=\"hunter2\";";

      assertThat(Redactor.redact(jaas)).doesNotContain("hunter2").contains("username=\"lab\"");
    }

    @Test
    void aPropertyMapHidesWholeSecretValuesAndSecretsInsideOthers() {
      Map<String, String> properties = new LinkedHashMap<>();
      properties.put("source.jdbc-url", "jdbc:mysql://lab:hunter2@db/lab");
      properties.put("source.password", "has spaces and = signs");
      properties.put("checkpoint.interval", "1 s");

      assertThat(Redactor.redactProperties(properties))
          .containsExactly(
              Map.entry("source.jdbc-url", "jdbc:mysql://lab:***@db/lab"),
              Map.entry("source.password", "***"),
              Map.entry("checkpoint.interval", "1 s"));
    }

    @ParameterizedTest
    @ValueSource(
        strings = {
          "password",
          "source.password",
          "PASSWD",
          "db.pwd",
          "client_secret",
          "oauth.token",
          "aws.credential",
          "sasl.jaas.config",
          "api-key",
          "x.apikey"
        })
    void secretKeysAreRecognised(String key) {
      assertThat(Redactor.isSecretKey(key)).isTrue();
    }

    @ParameterizedTest
    @ValueSource(strings = {"user", "source.jdbc-url", "checkpoint.interval", "topic", "key"})
    void ordinaryKeysAreNot(String key) {
      assertThat(Redactor.isSecretKey(key)).isFalse();
    }
  }

  @Nested
  class CommandLines {
    @ParameterizedTest(name = "{0}")
    @CsvSource(
        delimiter = '|',
        value = {
          "lab run --source-password hunter2 --seed 7|lab run --source-password *** --seed 7",
          "lab run --source-password=hunter2 --seed 7|lab run --source-password=*** --seed 7",
          "java -Dfoo.password=hunter2 -jar lab.jar|java -Dfoo.password=*** -jar lab.jar",
          "lab run --password hunter2|lab run --password ***",
          "lab run --password 'two words'|lab run --password '***'",
          "curl -H 'Authorization: Bearer abcdefgh12345678'|curl -H 'Authorization: Bearer ***'",
        })
    void hideTheValueOfASecretOption(String line, String expected) {
      assertThat(Redactor.redact(line)).isEqualTo(expected);
    }

    @Test
    void anArgumentListHidesTheArgumentAfterASecretOption() {
      List<String> arguments =
          List.of(
              "reliability-lab",
              "run",
              "--source-password",
              "has space",
              "--token=abc",
              "--source-url",
              "jdbc:mysql://lab:pw1@db/x",
              "--seed",
              "7");

      assertThat(Redactor.redactArguments(arguments))
          .containsExactly(
              "reliability-lab",
              "run",
              "--source-password",
              "***",
              "--token=***",
              "--source-url",
              "jdbc:mysql://lab:***@db/x",
              "--seed",
              "7");
      assertThat(Redactor.commandLine(arguments))
          .isEqualTo(
              "reliability-lab run --source-password *** --token=*** --source-url"
                  + " jdbc:mysql://lab:***@db/x --seed 7");
    }

    @Test
    void aFlagThatNamesASecretDoesNotSwallowTheNextOption() {
      assertThat(Redactor.redactArguments(List.of("--no-password-prompt", "--verbose")))
          .containsExactly("--no-password-prompt", "--verbose");
    }

    @Test
    void theCommandLineIsQuotedForAShell() {
      assertThat(Redactor.commandLine(List.of("lab", "run", "--name", "two words", "it's")))
          .isEqualTo("lab run --name 'two words' 'it'\"'\"'s'");
    }
  }

  @Nested
  class RegisteredSecrets {
    @Test
    void areHiddenWhereverTheyAppear() {
      Redactor.register("Tr0ub4dor&3");

      assertThat(Redactor.redact("connecting as lab with Tr0ub4dor&3 to db"))
          .isEqualTo("connecting as lab with *** to db");
    }

    @Test
    void areHiddenInTheirUrlEncodedFormToo() {
      Redactor.register("p@ss word");

      assertThat(Redactor.redact("url=jdbc:mysql://db/x?user=lab&pass=p%40ss+word"))
          .doesNotContain("p%40ss+word");
    }

    @Test
    void theSecretValuesOfAPropertyMapCanBeRegisteredAtOnce() {
      Redactor.registerSecretValues(
          Map.of("source.password", "s3cr3t-value", "source.user", "labuser"));

      assertThat(Redactor.redact("login labuser/s3cr3t-value")).isEqualTo("login labuser/***");
    }

    @Test
    void theLongestIsHiddenWhole() {
      Redactor.register("ab1");
      Redactor.register("ab1cd2ef");

      assertThat(Redactor.redact("x ab1cd2ef y ab1")).isEqualTo("x *** y ***");
    }

    @Test
    void blankValuesAreIgnored() {
      Redactor.register("");
      Redactor.register("   ");
      Redactor.register(null);

      assertThat(Redactor.redact("a b  c")).isEqualTo("a b  c");
    }

    @Test
    void aShortSecretIsHiddenOnlyWhereItStandsAsAValue() {
      Redactor.register("b");
      Redactor.register("lab");
      Redactor.register("password");

      assertThat(Redactor.redactRegistered("distribution jdbc:mysql://db/b b"))
          .isEqualTo("distribution jdbc:mysql://db/b b");
      assertThat(Redactor.redactRegistered("lab.orders lab_cdc lab:lab@db 'lab' \"lab\" was lab."))
          .isEqualTo("lab.orders lab_cdc lab:***@db '***' \"***\" was lab.");
      assertThat(Redactor.redactRegistered("the lab connects to jdbc:mysql://db/lab"))
          .isEqualTo("the lab connects to jdbc:mysql://db/lab");
      assertThat(Redactor.redactRegistered("lab")).isEqualTo("***");
      assertThat(Redactor.redactRegistered("user=lab&pass = b;")).isEqualTo("user=***&pass = ***;");
      assertThat(Redactor.redactRegistered("--source-password and source.password: password"))
          .isEqualTo("--source-password and source.password: ***");
    }

    @Test
    void aLongSecretIsHiddenInsideOtherWordsToo() {
      Redactor.register("correct-horse-battery");

      assertThat(Redactor.redactRegistered("xcorrect-horse-batteryx"))
          .isEqualTo("x" + Redactor.MASK + "x");
    }

    @Test
    void onlyRegisteredSecretsAreHiddenInStructuredText() {
      Redactor.register("hunter2");

      assertThat(Redactor.redactRegistered("{\"token_count\": 5, \"x\": \"hunter2\"}"))
          .isEqualTo("{\"token_count\": 5, \"x\": \"***\"}");
    }
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "",
        "Job 51dd090a switched from RUNNING to RESTARTING",
        "checkpoint 22 completed in 143 ms, snapshot 4061448876306798208 committed",
        "jdbc:mysql://db:3306/lab?useSSL=false&user=lab",
        "https://repo.maven.apache.org/maven2/org/apache/flink/",
        "reliability-lab run --pipeline direct --seed 7 --fault task-failure",
        "the password was rejected",
        "user@example.com wrote 3 rows",
      })
  void textWithoutSecretsIsUnchanged(String text) {
    assertThat(Redactor.redact(text)).isEqualTo(text);
  }
}
