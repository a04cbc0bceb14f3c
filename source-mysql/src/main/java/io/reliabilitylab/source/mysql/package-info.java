/**
 * The source database a pipeline captures: an embedded MariaDB by default, any MySQL 8 / MariaDB by
 * JDBC URL, a MySQL 8 container where Docker exists; its CDC prerequisites, the {@code orders}
 * schema and the writer that applies a seeded workload to it.
 */
@NullMarked
package io.reliabilitylab.source.mysql;

import org.jspecify.annotations.NullMarked;
