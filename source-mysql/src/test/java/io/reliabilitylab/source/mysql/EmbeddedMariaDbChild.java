package io.reliabilitylab.source.mysql;

import java.util.concurrent.CountDownLatch;

/** A JVM that starts an embedded server, reports its pid and waits to be killed. */
final class EmbeddedMariaDbChild {

  static final String READY = "SERVER-PID ";

  private EmbeddedMariaDbChild() {}

  public static void main(String[] args) throws InterruptedException {
    EmbeddedMariaDb source = EmbeddedMariaDb.start();
    System.out.println(READY + source.serverPid());
    System.out.flush();
    new CountDownLatch(1).await();
  }
}
