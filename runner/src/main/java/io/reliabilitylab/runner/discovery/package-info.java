/**
 * Discovery of faults, checks and pipelines on the class path with {@link java.util.ServiceLoader},
 * selected by name, and the plugin path: jars outside the lab's class path, loaded over it.
 */
@NullMarked
package io.reliabilitylab.runner.discovery;

import org.jspecify.annotations.NullMarked;
