/**
 * The source the runner holds whatever the database ({@link
 * io.reliabilitylab.source.jdbc.CdcSource} with its {@link
 * io.reliabilitylab.source.jdbc.SourceTable}, {@link io.reliabilitylab.source.jdbc.ChangeWriter}
 * and {@link io.reliabilitylab.source.jdbc.CaptureNotReadyException}), and what the source modules
 * share over plain JDBC: the loop that writes a workload commit by commit ({@link
 * io.reliabilitylab.source.jdbc.CommitLoop}), a result set read as a stream of rows ({@link
 * io.reliabilitylab.source.jdbc.ResultRows}), row values bound and read ({@link
 * io.reliabilitylab.source.jdbc.RowValues}) and JDBC URL checks ({@link
 * io.reliabilitylab.source.jdbc.JdbcUrls}).
 */
@NullMarked
package io.reliabilitylab.source.jdbc;

import org.jspecify.annotations.NullMarked;
