/**
 * The run dashboard: one self-contained HTML page (inline CSS, script and SVG charts, nothing
 * loaded from the network) that shows a directory of run records as a person reads a run.
 */
@NullMarked
package io.reliabilitylab.report;

import org.jspecify.annotations.NullMarked;
