package io.reliabilitylab.source.mysql.archfixture;

import ch.qos.logback.classic.Level;
import io.reliabilitylab.checks.SnapshotDiffCheck;

/** A source class that reaches into the checks and a logging binding: the rule must reject it. */
public final class SourceUsingTheChecks {

  private SourceUsingTheChecks() {}

  /** Depends on a check and on a logging binding, neither of which a source may use. */
  public static String use() {
    return new SnapshotDiffCheck().name() + Level.INFO;
  }
}
