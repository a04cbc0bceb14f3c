package io.reliabilitylab.record;

import static org.apiguardian.api.API.Status.STABLE;

import java.security.SecureRandom;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.HexFormat;
import java.util.Objects;
import java.util.regex.Pattern;
import org.apiguardian.api.API;

/**
 * Run and suite ids: the UTC start second and eight random hex digits, e.g. {@code
 * 20260820T131949Z-2aea4b71}. They sort by start time and name the record's file.
 */
@API(status = STABLE)
public final class RunId {

  /** The form every id has. */
  public static final Pattern PATTERN = Pattern.compile("\\d{8}T\\d{6}Z-[0-9a-f]{8}");

  private static final DateTimeFormatter SECOND =
      DateTimeFormatter.ofPattern("uuuuMMdd'T'HHmmss'Z'").withZone(ZoneOffset.UTC);

  private static final SecureRandom RANDOM = new SecureRandom();

  private RunId() {}

  /** A new id for a run started at {@code startedAt}. */
  public static String next(Instant startedAt) {
    Objects.requireNonNull(startedAt, "startedAt");
    byte[] suffix = new byte[4];
    RANDOM.nextBytes(suffix);
    return SECOND.format(startedAt) + "-" + HexFormat.of().formatHex(suffix);
  }

  /** Whether {@code id} has the form of a run id. */
  public static boolean isValid(String id) {
    return PATTERN.matcher(id).matches();
  }

  /** Returns {@code id}, or says what a run id looks like. */
  public static String requireValid(String id) {
    Objects.requireNonNull(id, "run id");
    if (!isValid(id)) {
      throw new IllegalArgumentException(
          "'"
              + id
              + "' is not a run id; a run id is the UTC start time and 8 hex digits, e.g."
              + " 20260820T131949Z-2aea4b71 (use RunId.next)");
    }
    return id;
  }
}
