package io.reliabilitylab.spi.secret;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.NotSerializableException;
import java.io.ObjectOutputStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class CredentialsTest {

  private static final String PASSWORD = "s3cr3t-Pw-4711";

  @AfterEach
  void forgetRegisteredSecrets() {
    Redactor.clearRegistered();
  }

  @Test
  void showsTheUserAndMasksThePassword() {
    Credentials credentials = Credentials.of("lab_cdc", PASSWORD);

    assertThat(credentials.toString())
        .isEqualTo("Credentials[user=lab_cdc, password=***]")
        .doesNotContain(PASSWORD);
    assertThat(String.valueOf(credentials)).doesNotContain(PASSWORD);
    assertThat(credentials.user()).isEqualTo("lab_cdc");
    assertThat(credentials.revealPassword()).isEqualTo(PASSWORD);
  }

  @Test
  void registersThePasswordSoThatLaterEchoesAreMasked() {
    Credentials.of("lab_cdc", PASSWORD);

    assertThat(Redactor.redact("Access denied for 'lab_cdc' using " + PASSWORD))
        .isEqualTo("Access denied for 'lab_cdc' using ***");
  }

  @Test
  void equalsComparesUserAndPasswordWithoutAHashThatDependsOnThePassword() {
    Credentials one = Credentials.of("u", PASSWORD);

    assertThat(one).isEqualTo(Credentials.of("u", PASSWORD));
    assertThat(one).isNotEqualTo(Credentials.of("u", "other"));
    assertThat(one).isNotEqualTo(Credentials.of("v", PASSWORD));
    assertThat(one.hashCode()).isEqualTo(Credentials.of("u", "other").hashCode());
  }

  @Test
  void refusesJavaSerialisation() {
    Credentials credentials = Credentials.of("u", PASSWORD);

    assertThatThrownBy(
            () -> new ObjectOutputStream(new ByteArrayOutputStream()).writeObject(credentials))
        .isInstanceOf(NotSerializableException.class);
  }
}
