package io.reliabilitylab.runner;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;

/**
 * The git revision of the directory the lab runs in, for the run record: the lab's own revision
 * when it runs from its checkout, a user's when it runs from theirs, null outside a checkout or
 * without git.
 */
final class GitRevision {

  private GitRevision() {}

  static @Nullable String current() {
    try {
      Process git =
          new ProcessBuilder("git", "rev-parse", "--short=12", "HEAD")
              .redirectErrorStream(true)
              .start();
      if (!git.waitFor(2, TimeUnit.SECONDS)) {
        git.destroyForcibly();
        return null;
      }
      String out = new String(git.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
      return git.exitValue() == 0 && out.matches("[0-9a-f]{7,40}") ? out : null;
    } catch (IOException e) {
      return null;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return null;
    }
  }
}
