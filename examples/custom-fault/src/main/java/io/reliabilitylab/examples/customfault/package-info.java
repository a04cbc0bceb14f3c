/**
 * An example fault plugin, {@code binlog-connection-kill}, written against the SPI only: the source
 * database drops the CDC connector's binlog connection.
 */
@NullMarked
package io.reliabilitylab.examples.customfault;

import org.jspecify.annotations.NullMarked;
