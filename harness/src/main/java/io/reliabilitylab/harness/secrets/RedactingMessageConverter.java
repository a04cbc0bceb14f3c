package io.reliabilitylab.harness.secrets;

import static org.apiguardian.api.API.Status.STABLE;

import ch.qos.logback.classic.pattern.MessageConverter;
import ch.qos.logback.classic.spi.ILoggingEvent;
import io.reliabilitylab.spi.secret.Redactor;
import org.apiguardian.api.API;

/**
 * A logback {@code %msg} converter that passes every formatted message through the {@link
 * Redactor}, so that no log line — the lab's or a third-party library's — carries a secret.
 *
 * <p>{@code <conversionRule conversionWord="msg" class="...RedactingMessageConverter"/>}
 */
@API(status = STABLE)
public class RedactingMessageConverter extends MessageConverter {

  @Override
  public String convert(ILoggingEvent event) {
    return Redactor.redact(super.convert(event));
  }
}
