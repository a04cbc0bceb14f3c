package io.reliabilitylab.harness.secrets;

import static org.apiguardian.api.API.Status.STABLE;

import ch.qos.logback.classic.pattern.ExtendedThrowableProxyConverter;
import ch.qos.logback.classic.spi.ILoggingEvent;
import io.reliabilitylab.spi.secret.Redactor;
import org.apiguardian.api.API;

/**
 * A logback {@code %ex} converter that passes the rendered exception (messages of the whole cause
 * chain and the stack) through the {@link Redactor}: exception messages often quote the JDBC URL or
 * the configuration that failed.
 *
 * <p>{@code <conversionRule conversionWord="ex" class="...RedactingThrowableConverter"/>}
 */
@API(status = STABLE)
public class RedactingThrowableConverter extends ExtendedThrowableProxyConverter {

  @Override
  public String convert(ILoggingEvent event) {
    return Redactor.redact(super.convert(event));
  }
}
