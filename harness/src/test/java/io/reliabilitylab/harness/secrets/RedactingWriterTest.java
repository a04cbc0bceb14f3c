package io.reliabilitylab.harness.secrets;

import static org.assertj.core.api.Assertions.assertThat;

import io.reliabilitylab.spi.secret.Redactor;
import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class RedactingWriterTest {

  @AfterEach
  void forget() {
    Redactor.clearRegistered();
  }

  @Test
  void aSecretSplitAcrossWritesIsMaskedAndOtherTextIsKept() {
    Redactor.register("lab");
    StringWriter console = new StringWriter();
    PrintWriter out = new PrintWriter(new RedactingWriter(console), true);

    out.print("Running direct on external (jdbc:mysql://lab:l");
    out.println("ab@127.0.0.1:1/lab), table lab.orders");
    out.print("the lab connects as 'lab'");
    out.flush();

    assertThat(console.toString())
        .isEqualTo(
            "Running direct on external (jdbc:mysql://lab:***@127.0.0.1:1/lab), table lab.orders"
                + System.lineSeparator()
                + "the lab connects as '***'");
  }
}
