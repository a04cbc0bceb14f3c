package io.reliabilitylab.pipeline.broker.dlq;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Objects;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * How a record's payload may appear in logs and run records: as its SHA-256 and length only, never
 * its bytes (a poison payload may hold anything, secrets included).
 */
@API(status = EXPERIMENTAL)
public final class Payloads {

  private Payloads() {}

  /** The SHA-256 of the bytes, lower-case hex. */
  public static String sha256Hex(byte[] bytes) {
    Objects.requireNonNull(bytes, "bytes");
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("This JVM has no SHA-256, which every JVM must have", e);
    }
  }

  /** {@code "<n> bytes, sha256 <hex>"}, or {@code "null"}: a payload as a log line may show it. */
  public static String describe(byte @Nullable [] bytes) {
    return bytes == null ? "null" : bytes.length + " bytes, sha256 " + sha256Hex(bytes);
  }
}
