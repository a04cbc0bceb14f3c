/**
 * Test-only faults, checks and pipelines, registered per scenario under {@code
 * src/test/resources/discovery/<scenario>/META-INF/services} so that they never leak into other
 * tests' discovery; and {@link io.reliabilitylab.runner.discovery.testplugins.TestJars}, which
 * compiles plugin jars at test time.
 */
@NullMarked
package io.reliabilitylab.runner.discovery.testplugins;

import org.jspecify.annotations.NullMarked;
