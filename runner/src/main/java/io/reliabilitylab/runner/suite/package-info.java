/**
 * A suite of scenarios as one library call: a baseline, each selected fault variant and each
 * selected exercise as a scenario of its own on the same source, then a summary record.
 */
@NullMarked
package io.reliabilitylab.runner.suite;

import org.jspecify.annotations.NullMarked;
