/**
 * Discovery of faults, checks and pipelines on the class path with {@link java.util.ServiceLoader},
 * selected by name.
 */
@NullMarked
package io.reliabilitylab.runner.discovery;

import org.jspecify.annotations.NullMarked;
