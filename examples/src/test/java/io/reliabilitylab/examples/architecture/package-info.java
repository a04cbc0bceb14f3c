/** The module architecture of DESIGN.md, enforced as tests over every module's classes and POMs. */
@NullMarked
package io.reliabilitylab.examples.architecture;

import org.jspecify.annotations.NullMarked;
