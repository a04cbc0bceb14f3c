package io.reliabilitylab.process;

import org.jspecify.annotations.Nullable;

/**
 * What the lab-wide registry records of one started process: the JVM that owns it, the process
 * itself, its role and pid file. Start instants guard against a pid the system has since given to
 * another process.
 */
record ProcessMarker(
    long ownerPid,
    @Nullable String ownerStart,
    long pid,
    @Nullable String start,
    String role,
    String pidFile) {}
