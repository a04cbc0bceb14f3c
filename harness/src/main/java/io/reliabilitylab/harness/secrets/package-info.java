/**
 * Keeping secrets out of run records and log lines: the {@link
 * io.reliabilitylab.harness.secrets.Redactor}, logback converters that apply it, and the lab's
 * logging configuration.
 */
@NullMarked
package io.reliabilitylab.harness.secrets;

import org.jspecify.annotations.NullMarked;
