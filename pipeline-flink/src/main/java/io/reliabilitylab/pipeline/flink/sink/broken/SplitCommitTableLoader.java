package io.reliabilitylab.pipeline.flink.sink.broken;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.function.Consumer;
import org.apache.iceberg.BaseTable;
import org.apache.iceberg.ContentFile;
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
 * BROKEN on purpose: loads a table whose row-level commits are split, the earlier parts in
 * snapshots of their own (no Flink checkpoint in their summary, so the committer's restore never
 * stops at one) and the last part, with the checkpoint, in the commit's own snapshot. The table
 * after the last part is exactly what one commit gives, so every check of the end state passes;
 * only a check of every snapshot catches what readers saw in between. Two ways to split ({@link
 * Split}): the equality deletes ahead of the rows that replace them (each key the checkpoint
 * updated vanishes and comes back), or one writer's files at a time (each key shows a state the
 * source held, but the keys of one writer are ahead of the others': half a transaction).
 */
@API(status = EXPERIMENTAL)
public final class SplitCommitTableLoader implements TableLoader {

  /** The snapshot summary property that marks an early part of a split commit. */
  public static final String SUMMARY_PROPERTY = "lab.broken-split-commit";

  private static final long serialVersionUID = 1L;

  /** How a commit is split. */
  public enum Split {
    /** The equality deletes alone first, then the rows and position deletes. */
    EQUALITY_DELETES_FIRST,
    /**
     * Each writer's files in a snapshot of their own, in writer order (a writer's data file is
     * named after its subtask, {@code 00001-…}); a writer's equality deletes touch its own keys
     * only, since the sink distributes rows by key.
     */
    ONE_WRITER_AT_A_TIME
  }

  private final TableLoader delegate;
  private final Split split;

  private SplitCommitTableLoader(TableLoader delegate, Split split) {
    this.delegate = delegate;
    this.split = split;
  }

  /** Wraps {@code delegate}: the tables it loads commit their equality deletes first. */
  public static SplitCommitTableLoader wrap(TableLoader delegate) {
    return wrap(delegate, Split.EQUALITY_DELETES_FIRST);
  }

  /** Wraps {@code delegate}: the tables it loads split their row-level commits by {@code split}. */
  public static SplitCommitTableLoader wrap(TableLoader delegate, Split split) {
    return new SplitCommitTableLoader(
        Objects.requireNonNull(delegate, "delegate"), Objects.requireNonNull(split, "split"));
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
    return new SplitCommitTable(withOperations.operations(), table.name(), split);
  }

  @Override
  @SuppressWarnings("MethodDoesntCallSuperMethod")
  public TableLoader clone() {
    return new SplitCommitTableLoader(delegate.clone(), split);
  }

  @Override
  public void close() throws IOException {
    delegate.close();
  }

  @Override
  public String toString() {
    return "SplitCommitTableLoader{" + split + ", " + delegate + "}";
  }

  /** A table whose {@link #newRowDelta()} splits its commit. */
  private static final class SplitCommitTable extends BaseTable {
    private static final long serialVersionUID = 1L;

    private final Split split;

    SplitCommitTable(TableOperations operations, String name, Split split) {
      super(operations, name);
      this.split = split;
    }

    @Override
    public RowDelta newRowDelta() {
      return new SplitRowDelta(new BaseTable(operations(), name()), super.newRowDelta(), split);
    }
  }

  /** The files of one part of a split commit. */
  private record Part(List<DataFile> rows, List<DeleteFile> deletes) {}

  /**
   * A row delta that holds back its files and, at commit, commits the early parts of its split
   * alone, then gives the last part to the delegate, which commits it with the summary.
   */
  private static final class SplitRowDelta implements RowDelta {
    private final Table table;
    private final RowDelta rest;
    private final Split split;
    private final List<DataFile> rows = new ArrayList<>();
    private final List<DeleteFile> deletes = new ArrayList<>();
    private @Nullable String branch;
    private @Nullable ExecutorService manifestPool;

    SplitRowDelta(Table table, RowDelta rest, Split split) {
      this.table = table;
      this.rest = rest;
      this.split = split;
    }

    @Override
    public RowDelta addRows(DataFile inserts) {
      rows.add(inserts);
      return this;
    }

    @Override
    public RowDelta addDeletes(DeleteFile deleteFile) {
      deletes.add(deleteFile);
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
      List<Part> parts = parts();
      // THE BUG: each early part becomes visible one snapshot before the rest of the checkpoint.
      for (Part part : parts.subList(0, parts.size() - 1)) {
        RowDelta early = table.newRowDelta();
        part.rows().forEach(early::addRows);
        part.deletes().forEach(early::addDeletes);
        early.set(
            SUMMARY_PROPERTY,
            split == Split.EQUALITY_DELETES_FIRST
                ? "equality deletes committed ahead of their rows"
                : "one writer's files committed ahead of the others'");
        if (branch != null) {
          early.toBranch(branch);
        }
        if (manifestPool != null) {
          early.scanManifestsWith(manifestPool);
        }
        early.commit();
      }
      Part last = parts.get(parts.size() - 1);
      last.rows().forEach(rest::addRows);
      last.deletes().forEach(rest::addDeletes);
      rest.commit();
    }

    /** The parts in commit order; the last one goes with the checkpoint; never empty. */
    private List<Part> parts() {
      if (split == Split.EQUALITY_DELETES_FIRST) {
        List<DeleteFile> equality = new ArrayList<>();
        List<DeleteFile> positional = new ArrayList<>();
        deletes.forEach(
            file ->
                (file.content() == FileContent.EQUALITY_DELETES ? equality : positional).add(file));
        Part others = new Part(rows, positional);
        return equality.isEmpty()
            ? List.of(others)
            : List.of(new Part(List.of(), equality), others);
      }
      TreeMap<String, Part> byWriter = new TreeMap<>();
      rows.forEach(
          file ->
              byWriter
                  .computeIfAbsent(
                      writerOf(file), any -> new Part(new ArrayList<>(), new ArrayList<>()))
                  .rows()
                  .add(file));
      deletes.forEach(
          file ->
              byWriter
                  .computeIfAbsent(
                      writerOf(file), any -> new Part(new ArrayList<>(), new ArrayList<>()))
                  .deletes()
                  .add(file));
      return byWriter.isEmpty()
          ? List.of(new Part(List.of(), List.of()))
          : List.copyOf(byWriter.values());
    }

    /** The writer subtask a file's name starts with ({@code 00001-0-<uuid>-00001.parquet}). */
    private static String writerOf(ContentFile<?> file) {
      String location = file.location();
      String name = location.substring(location.lastIndexOf('/') + 1);
      int dash = name.indexOf('-');
      return dash > 0 ? name.substring(0, dash) : "";
    }
  }
}
