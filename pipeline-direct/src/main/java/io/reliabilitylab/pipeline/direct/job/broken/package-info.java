/**
 * Deliberately broken variants of the direct job, the lab's negative controls: each is wrong in a
 * way a real pipeline can be, and the checks must report it as failed with evidence.
 */
@NullMarked
package io.reliabilitylab.pipeline.direct.job.broken;

import org.jspecify.annotations.NullMarked;
