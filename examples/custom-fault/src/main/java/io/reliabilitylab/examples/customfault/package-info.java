/**
 * An example fault plugin, {@code source-connection-loss}, written against the SPI only: the source
 * database drops the CDC connector's binlog connection.
 */
@NullMarked
package io.reliabilitylab.examples.customfault;

import org.jspecify.annotations.NullMarked;
