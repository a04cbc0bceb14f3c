package io.reliabilitylab.pipeline.flink.sink.broken;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.function.Consumer;
import org.apache.iceberg.BaseTable;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileContent;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.RowDelta;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableOperations;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.flink.TableLoader;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * BROKEN on purpose: loads a table whose row-level commits are split in two. The equality deletes
 * of a commit go first, in a snapshot of their own (no Flink checkpoint in its summary, so the
 * committer's restore never stops at it), and the rows and position deletes follow in a second
 * snapshot. The table after the second commit is exactly what one commit gives (the rows come one
 * sequence number later, out of reach of the deletes before them), so every check of the end state
 * passes; between the two, every reader of the table sees each key the checkpoint updated missing —
 * half of a commit, a row that vanishes and comes back. Only a check of every snapshot catches it.
 */
@API(status = EXPERIMENTAL)
public final class SplitCommitTableLoader implements TableLoader {

  /** The snapshot summary property that marks the first half of a split commit. */
  public static final String SUMMARY_PROPERTY = "lab.broken-split-commit";

  private static final long serialVersionUID = 1L;

  private final TableLoader delegate;

  private SplitCommitTableLoader(TableLoader delegate) {
    this.delegate = delegate;
  }

  /** Wraps {@code delegate}: the tables it loads split their row-level commits. */
  public static SplitCommitTableLoader wrap(TableLoader delegate) {
    return new SplitCommitTableLoader(Objects.requireNonNull(delegate, "delegate"));
  }

  @Override
  public void open() {
    delegate.open();
  }

  @Override
  public boolean isOpen() {
    return delegate.isOpen();
  }

  @Override
  public Table loadTable() {
    Table table = delegate.loadTable();
    if (!(table instanceof HasTableOperations withOperations)) {
      return table;
    }
    return new SplitCommitTable(withOperations.operations(), table.name());
  }

  @Override
  @SuppressWarnings("MethodDoesntCallSuperMethod")
  public TableLoader clone() {
    return new SplitCommitTableLoader(delegate.clone());
  }

  @Override
  public void close() throws IOException {
    delegate.close();
  }

  @Override
  public String toString() {
    return "SplitCommitTableLoader{" + delegate + "}";
  }

  /** A table whose {@link #newRowDelta()} commits its equality deletes ahead of the rest. */
  private static final class SplitCommitTable extends BaseTable {
    private static final long serialVersionUID = 1L;

    SplitCommitTable(TableOperations operations, String name) {
      super(operations, name);
    }

    @Override
    public RowDelta newRowDelta() {
      return new EqualityDeletesFirst(new BaseTable(operations(), name()), super.newRowDelta());
    }
  }

  /**
   * A row delta that holds back its equality deletes and commits them alone just before the rest.
   * Everything else goes to the delegate, which commits the rows, position deletes and summary.
   */
  private static final class EqualityDeletesFirst implements RowDelta {
    private final Table table;
    private final RowDelta rest;
    private final List<DeleteFile> equalityDeletes = new ArrayList<>();
    private @Nullable String branch;
    private @Nullable ExecutorService manifestPool;

    EqualityDeletesFirst(Table table, RowDelta rest) {
      this.table = table;
      this.rest = rest;
    }

    @Override
    public RowDelta addRows(DataFile inserts) {
      rest.addRows(inserts);
      return this;
    }

    @Override
    public RowDelta addDeletes(DeleteFile deletes) {
      if (deletes.content() == FileContent.EQUALITY_DELETES) {
        equalityDeletes.add(deletes);
      } else {
        rest.addDeletes(deletes);
      }
      return this;
    }

    @Override
    public RowDelta removeRows(DataFile file) {
      rest.removeRows(file);
      return this;
    }

    @Override
    public RowDelta removeDeletes(DeleteFile deletes) {
      rest.removeDeletes(deletes);
      return this;
    }

    @Override
    public RowDelta validateFromSnapshot(long snapshotId) {
      rest.validateFromSnapshot(snapshotId);
      return this;
    }

    @Override
    public RowDelta caseSensitive(boolean caseSensitive) {
      rest.caseSensitive(caseSensitive);
      return this;
    }

    @Override
    public RowDelta validateDataFilesExist(Iterable<? extends CharSequence> referencedFiles) {
      rest.validateDataFilesExist(referencedFiles);
      return this;
    }

    @Override
    public RowDelta validateDeletedFiles() {
      rest.validateDeletedFiles();
      return this;
    }

    @Override
    public RowDelta conflictDetectionFilter(Expression filter) {
      rest.conflictDetectionFilter(filter);
      return this;
    }

    @Override
    public RowDelta validateNoConflictingDataFiles() {
      rest.validateNoConflictingDataFiles();
      return this;
    }

    @Override
    public RowDelta validateNoConflictingDeleteFiles() {
      rest.validateNoConflictingDeleteFiles();
      return this;
    }

    @Override
    public RowDelta set(String property, String value) {
      rest.set(property, value);
      return this;
    }

    @Override
    public RowDelta deleteWith(Consumer<String> deleteFunc) {
      rest.deleteWith(deleteFunc);
      return this;
    }

    @Override
    public RowDelta stageOnly() {
      rest.stageOnly();
      return this;
    }

    @Override
    public RowDelta scanManifestsWith(ExecutorService executorService) {
      manifestPool = executorService;
      rest.scanManifestsWith(executorService);
      return this;
    }

    @Override
    public RowDelta toBranch(String branchName) {
      branch = branchName;
      rest.toBranch(branchName);
      return this;
    }

    @Override
    public Snapshot apply() {
      return rest.apply();
    }

    @Override
    public void commit() {
      if (!equalityDeletes.isEmpty()) {
        // THE BUG: the deletes become visible one snapshot before the rows that replace them.
        RowDelta first = table.newRowDelta();
        equalityDeletes.forEach(first::addDeletes);
        first.set(SUMMARY_PROPERTY, "equality deletes committed ahead of their rows");
        if (branch != null) {
          first.toBranch(branch);
        }
        if (manifestPool != null) {
          first.scanManifestsWith(manifestPool);
        }
        first.commit();
      }
      rest.commit();
    }
  }
}
