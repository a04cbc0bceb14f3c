package io.reliabilitylab.pipeline.flink.faults;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Locale;

/** This JVM as the fault channel names it: {@code pid@host}, and its role in a Flink cluster. */
final class ProcessIdentity {

  private static final String JOB_MANAGER_MAIN = "org.apache.flink.runtime.entrypoint.";
  private static final String TASK_MANAGER_MAIN =
      "org.apache.flink.runtime.taskexecutor.TaskManagerRunner";

  private static volatile String name;

  private ProcessIdentity() {}

  /** {@code pid@host}, as the operating system knows this process. */
  static String name() {
    String known = name;
    if (known == null) {
      known = ProcessHandle.current().pid() + "@" + host();
      name = known;
    }
    return known;
  }

  /**
   * {@code jobmanager} or {@code taskmanager} when this JVM was started with a Flink entry point's
   * main class (as the lab's process cluster and Flink's scripts start them), else {@code jvm} (the
   * lab's own JVM with a MiniCluster, a test, any other process).
   */
  static String role() {
    String command = System.getProperty("sun.java.command", "");
    String main = command.isBlank() ? "" : command.strip().split("\\s+", 2)[0];
    if (main.startsWith(JOB_MANAGER_MAIN)) {
      return "jobmanager";
    }
    if (main.equals(TASK_MANAGER_MAIN)) {
      return "taskmanager";
    }
    return "jvm";
  }

  private static String host() {
    try {
      return InetAddress.getLocalHost().getHostName().toLowerCase(Locale.ROOT);
    } catch (UnknownHostException e) {
      return "localhost";
    }
  }
}
