package io.reliabilitylab.pipeline.direct.postgres;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** What Debezium 1.9's PostgreSQL connector logs when it resumes from a restored offset. */
final class DebeziumResumeLog {

  private static final Pattern RESUME =
      Pattern.compile(
          "last commit LSN 'LSN\\{([0-9A-F/]+)}' and last change LSN 'LSN\\{([0-9A-F/]+)}'");
  private static final Pattern SKIP =
      Pattern.compile(
          "requested from LSN LSN\\{([0-9A-F/]+)}, received LSN LSN\\{([0-9A-F/]+)} identified as"
              + " already processed");

  private DebeziumResumeLog() {}

  /**
   * Whether the connector resumed at an offset whose last commit and last change are one LSN (a
   * checkpoint taken idle after a commit) and then skipped a change at exactly that LSN as already
   * processed: the next transaction's first change, which FLINK-39265 loses.
   */
  static boolean changeSkippedAtAnIdleCommit(List<String> lines) {
    Set<String> idleCommits = new HashSet<>();
    for (String line : lines) {
      Matcher resume = RESUME.matcher(line);
      if (resume.find() && resume.group(1).equals(resume.group(2))) {
        idleCommits.add(resume.group(1));
      }
      Matcher skip = SKIP.matcher(line);
      if (skip.find()
          && skip.group(1).equals(skip.group(2))
          && idleCommits.contains(skip.group(1))) {
        return true;
      }
    }
    return false;
  }
}
