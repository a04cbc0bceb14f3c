package io.reliabilitylab.source.postgres;

import java.util.concurrent.CountDownLatch;

/** A JVM that starts an embedded server, reports its pid and directory, and waits to be killed. */
final class EmbeddedPostgresChild {

  static final String READY = "SERVER ";

  private EmbeddedPostgresChild() {}

  public static void main(String[] args) throws InterruptedException {
    EmbeddedPostgres source = EmbeddedPostgres.start();
    System.out.println(READY + source.serverPid() + " " + source.directory());
    System.out.flush();
    new CountDownLatch(1).await();
  }
}
