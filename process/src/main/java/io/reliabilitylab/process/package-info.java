/**
 * The processes the lab starts (TaskManagers, JobManagers, ZooKeeper, brokers): each is recorded
 * with a pid file and a marker in a lab-wide registry, stopped on every exit path of the JVM that
 * started it, and killed by a later run if that JVM was killed first.
 */
@NullMarked
package io.reliabilitylab.process;

import org.jspecify.annotations.NullMarked;
