package io.reliabilitylab.checks.sort;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import org.apiguardian.api.API;

/**
 * Writes records to and reads them from a spill file. The format is private to one sort: it never
 * outlives the sorter, so it carries no schema and no version.
 */
@API(status = EXPERIMENTAL)
public interface RecordCodec<T> {

  /** Writes one record. */
  void write(DataOutput out, T record) throws IOException;

  /** Reads the record the matching {@link #write} wrote. */
  T read(DataInput in) throws IOException;
}
