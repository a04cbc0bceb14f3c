package io.reliabilitylab.checks.iceberg;

import java.util.List;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.Schema;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.data.DeleteFilter;
import org.apache.iceberg.data.DeleteLoader;
import org.apache.iceberg.data.InternalRecordWrapper;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.InputFile;

/** Iceberg's delete filter for a data file's position deletes alone, with the shared loader. */
final class PositionDeletes extends DeleteFilter<Record> {
  private final CachedDeletes deletes;
  private final InternalRecordWrapper wrapper;

  PositionDeletes(
      String path,
      List<DeleteFile> positional,
      Schema tableSchema,
      Schema requested,
      CachedDeletes deletes) {
    super(path, positional, tableSchema, requested);
    this.deletes = deletes;
    this.wrapper = new InternalRecordWrapper(requiredSchema().asStruct());
  }

  @Override
  protected StructLike asStructLike(Record record) {
    return wrapper.wrap(record);
  }

  @Override
  protected InputFile getInputFile(String location) {
    return deletes.io.newInputFile(location);
  }

  @Override
  protected DeleteLoader newDeleteLoader() {
    return deletes.loader;
  }
}
