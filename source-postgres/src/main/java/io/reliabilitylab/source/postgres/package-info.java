/**
 * PostgreSQL as a source: an embedded server with logical decoding that the lab starts on a free
 * loopback port and stops on every exit path, and the checks that a server can be captured.
 */
@NullMarked
package io.reliabilitylab.source.postgres;

import org.jspecify.annotations.NullMarked;
