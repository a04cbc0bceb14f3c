package io.reliabilitylab.spi;

import static org.assertj.core.api.Assertions.assertThat;

import io.reliabilitylab.spi.secret.Redactor;
import java.io.IOException;
import java.io.UncheckedIOException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class FailuresTest {

  @AfterEach
  void forgetRegisteredSecrets() {
    Redactor.clearRegistered();
  }

  @Test
  void theMessageWithItsRootCause() {
    Exception failure =
        new IllegalStateException(
            "cannot open\n  the table", new UncheckedIOException(new IOException("disk full")));

    assertThat(Failures.oneLine(failure))
        .isEqualTo("cannot open the table (caused by IOException: disk full)");
    assertThat(Failures.oneLine(new IllegalStateException("alone"))).isEqualTo("alone");
    assertThat(Failures.oneLine(new NullPointerException())).isEqualTo("NullPointerException");
  }

  @Test
  void withTypesNamesEveryClass() {
    Exception failure = new IllegalStateException("boom", new IOException("disk full"));

    assertThat(Failures.oneLineWithTypes(failure))
        .isEqualTo(
            "java.lang.IllegalStateException: boom; caused by java.io.IOException: disk full");
    assertThat(Failures.oneLineWithTypes(new NullPointerException()))
        .isEqualTo("java.lang.NullPointerException");
  }

  @Test
  void namedIsTheFailureAloneBySimpleClass() {
    Exception failure = new IllegalStateException("cannot\n load", new IOException("disk full"));

    assertThat(Failures.named(failure)).isEqualTo("IllegalStateException: cannot load");
    assertThat(Failures.named(new NullPointerException())).isEqualTo("NullPointerException");
  }

  @Test
  void masksRegisteredSecretsAndLeavesOptionNamesAlone() {
    Redactor.register("Registered-Secret-1");
    Exception failure =
        new IllegalStateException(
            "login failed", new IOException("Access denied using Registered-Secret-1"));

    assertThat(Failures.oneLine(failure))
        .isEqualTo("login failed (caused by IOException: Access denied using ***)");
    assertThat(Failures.oneLineWithTypes(failure)).doesNotContain("Registered-Secret-1");
    assertThat(Failures.oneLine("--source-user and --source-password need --source-jdbc-url."))
        .isEqualTo("--source-user and --source-password need --source-jdbc-url.");
  }

  @Test
  void rootCauseIsTheFailureItselfWithoutACause() {
    IOException root = new IOException("root");
    RuntimeException failure = new RuntimeException(new RuntimeException(root));

    assertThat(Failures.rootCause(failure)).isSameAs(root);
    assertThat(Failures.rootCause(root)).isSameAs(root);
    assertThat(Failures.oneLine((String) null)).isEmpty();
  }
}
