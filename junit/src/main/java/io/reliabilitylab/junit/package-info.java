/**
 * The lab for a pipeline team's JUnit 5 tests: {@link
 * io.reliabilitylab.junit.ReliabilityLabExtension} runs failure scenarios against a pipeline found
 * by name on the test's class path, and {@link io.reliabilitylab.junit.LabAssertions} asserts on
 * the run records they leave.
 */
@NullMarked
package io.reliabilitylab.junit;

import org.jspecify.annotations.NullMarked;
