/**
 * Plugins only this module's tests discover: a pipeline that never starts, a fault never injected.
 */
@NullMarked
package io.reliabilitylab.junit.testplugins;

import org.jspecify.annotations.NullMarked;
