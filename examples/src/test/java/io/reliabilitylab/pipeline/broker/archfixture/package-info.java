/** The other half of a deliberate pipeline-rule violation. */
@NullMarked
package io.reliabilitylab.pipeline.broker.archfixture;

import org.jspecify.annotations.NullMarked;
