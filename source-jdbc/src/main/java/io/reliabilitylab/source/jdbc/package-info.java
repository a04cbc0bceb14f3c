/**
 * What the source modules share over plain JDBC, whatever the database: the loop that writes a
 * workload commit by commit ({@link io.reliabilitylab.source.jdbc.CommitLoop}), a result set read
 * as a stream of rows ({@link io.reliabilitylab.source.jdbc.ResultRows}), row values bound and read
 * ({@link io.reliabilitylab.source.jdbc.RowValues}) and JDBC URL checks ({@link
 * io.reliabilitylab.source.jdbc.JdbcUrls}).
 */
@NullMarked
package io.reliabilitylab.source.jdbc;

import org.jspecify.annotations.NullMarked;
