package io.reliabilitylab.pipeline.flink.faults;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.apache.flink.api.common.functions.DefaultOpenContext;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.fs.FileSystem;

/**
 * A second JVM for {@link FaultChannelIT}: opens an operator fault point on a channel (which starts
 * the watcher, as a subtask does) and calls it in a loop until a stop file appears, reporting each
 * injected fault and each element that was held up.
 */
public final class FaultChannelChild {

  static final String READY = "srl-channel-child ready ";
  static final String FIRED = "srl-channel-child fired ";
  static final String HELD = "srl-channel-child held-ms ";
  static final String DONE = "srl-channel-child done ";

  private FaultChannelChild() {}

  public static void main(String[] args) throws Exception {
    Path channel = Path.of(args[0]);
    Path stop = Path.of(args[1]);
    if (args.length > 2) {
      writeCheckpoints(Path.of(args[2]), stop);
      return;
    }
    OperatorFaultPoint<String> point = new OperatorFaultPoint<>(element -> false, channel);
    point.open(DefaultOpenContext.INSTANCE);
    System.out.println(READY + ProcessHandle.current().pid());
    int fired = 0;
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
    while (!Files.exists(stop) && System.nanoTime() - deadline < 0) {
      long started = System.nanoTime();
      try {
        point.map("element");
      } catch (InjectedFaultException e) {
        fired++;
        System.out.println(FIRED + e.faultId());
      }
      long heldMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
      if (heldMillis >= 200) {
        System.out.println(HELD + heldMillis);
      }
      Thread.sleep(2);
    }
    System.out.println(DONE + fired);
    System.out.flush();
    System.exit(0);
  }

  /**
   * Writes a file into a new {@code chk-<n>} directory every 20 ms through the {@code srlfault}
   * file system, which Flink finds and configures as a cluster process does: the channel comes from
   * the system property {@value FaultChannelWatcher#CHANNEL_PROPERTY} only.
   */
  private static void writeCheckpoints(Path checkpoints, Path stop) throws Exception {
    FileSystem.initialize(new Configuration(), null);
    System.out.println(READY + ProcessHandle.current().pid());
    int fired = 0;
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
    for (long checkpoint = 1;
        !Files.exists(stop) && System.nanoTime() - deadline < 0;
        checkpoint++) {
      Path directory =
          Files.createDirectories(checkpoints.resolve("job").resolve("chk-" + checkpoint));
      org.apache.flink.core.fs.Path file =
          new org.apache.flink.core.fs.Path(
              FaultInjectingFileSystem.uriOf(directory.resolve("state")));
      try (OutputStream out =
          file.getFileSystem().create(file, FileSystem.WriteMode.NO_OVERWRITE)) {
        out.write(1);
      } catch (IOException e) {
        fired++;
        System.out.println(FIRED + e.getMessage());
      }
      Thread.sleep(20);
    }
    System.out.println(DONE + fired);
    System.out.flush();
    System.exit(0);
  }
}
