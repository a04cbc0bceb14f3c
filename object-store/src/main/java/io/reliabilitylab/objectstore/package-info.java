/**
 * An S3-compatible object store the lab runs as a process of its own (Adobe's S3Mock), with the
 * properties Iceberg's {@code S3FileIO} needs to write tables to it, so that pipelines commit to an
 * object store as they do in production rather than to a local file system.
 */
@NullMarked
package io.reliabilitylab.objectstore;

import org.jspecify.annotations.NullMarked;
