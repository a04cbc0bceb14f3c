/**
 * Value types for rows, change events and their canonical form: the vocabulary shared by pipelines,
 * the oracle and the checks.
 */
@NullMarked
package io.reliabilitylab.spi.data;

import org.jspecify.annotations.NullMarked;
