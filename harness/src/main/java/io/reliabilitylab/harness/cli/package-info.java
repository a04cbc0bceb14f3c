/** The {@code reliability-lab} command line: its commands, help, exit codes and error lines. */
@NullMarked
package io.reliabilitylab.harness.cli;

import org.jspecify.annotations.NullMarked;
