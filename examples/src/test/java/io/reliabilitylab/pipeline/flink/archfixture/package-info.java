/** A deliberate violation of the pipeline rule, to prove the architecture test can fail. */
@NullMarked
package io.reliabilitylab.pipeline.flink.archfixture;

import org.jspecify.annotations.NullMarked;
