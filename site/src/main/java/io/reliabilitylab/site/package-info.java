/**
 * Builds the documentation site: Markdown pages, included example code and the plugin catalogue.
 */
@NullMarked
package io.reliabilitylab.site;

import org.jspecify.annotations.NullMarked;
