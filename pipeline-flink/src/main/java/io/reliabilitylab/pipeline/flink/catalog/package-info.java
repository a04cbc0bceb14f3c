/**
 * The catalogs a reference pipeline's sink tables can live in beyond the default Hadoop warehouse:
 * the embedded REST catalog over an object store, or a team's own REST catalog, chosen by options.
 */
@NullMarked
package io.reliabilitylab.pipeline.flink.catalog;

import org.jspecify.annotations.NullMarked;
