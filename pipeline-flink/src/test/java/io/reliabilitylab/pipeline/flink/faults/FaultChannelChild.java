package io.reliabilitylab.pipeline.flink.faults;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.apache.flink.api.common.functions.DefaultOpenContext;

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
}
