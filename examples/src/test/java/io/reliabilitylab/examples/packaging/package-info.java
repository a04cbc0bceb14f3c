/** Integration tests of the packaged {@code reliability-lab.jar}, run as a separate JVM. */
@NullMarked
package io.reliabilitylab.examples.packaging;

import org.jspecify.annotations.NullMarked;
