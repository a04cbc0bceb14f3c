/**
 * Transaction alignment: an operator that holds each source transaction's changes until the change
 * log shows the transaction complete, so that no checkpoint, and no commit, splits one.
 */
@NullMarked
package io.reliabilitylab.pipeline.flink.transaction;

import org.jspecify.annotations.NullMarked;
