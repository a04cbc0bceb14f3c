/**
 * Keeping secrets out of the command line's log lines and console: logback converters and a writer
 * that apply the {@link io.reliabilitylab.spi.secret.Redactor}, and the lab's logging
 * configuration.
 */
@NullMarked
package io.reliabilitylab.harness.secrets;

import org.jspecify.annotations.NullMarked;
