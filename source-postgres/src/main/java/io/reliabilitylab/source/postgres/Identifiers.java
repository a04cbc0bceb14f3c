package io.reliabilitylab.source.postgres;

import java.util.regex.Pattern;

/** SQL identifiers as a statement a user may paste needs them. */
final class Identifiers {

  private static final Pattern PLAIN = Pattern.compile("[a-z_][a-z0-9_$]*");

  private Identifiers() {}

  /** {@code name} as is when it is a plain lower-case identifier, else double-quoted. */
  static String quote(String name) {
    return PLAIN.matcher(name).matches() ? name : '"' + name.replace("\"", "\"\"") + '"';
  }
}
