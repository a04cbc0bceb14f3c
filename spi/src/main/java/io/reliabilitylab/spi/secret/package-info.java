/**
 * Keeping secrets out of run records and log lines: the {@link
 * io.reliabilitylab.spi.secret.Redactor}, which every part of the lab (and a plugin) registers its
 * passwords with and applies to the text it records or logs.
 */
@NullMarked
package io.reliabilitylab.spi.secret;

import org.jspecify.annotations.NullMarked;
