package io.reliabilitylab.spi.secret;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.Objects;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * A user name and its password, the password shown only when asked for by name: {@link #toString()}
 * masks it, and creating credentials {@linkplain Redactor#register registers} it, so that a log
 * line or a run record that echoes it later shows {@value Redactor#MASK} instead.
 *
 * <p>Not {@link java.io.Serializable} and without bean getters, so that neither Java serialisation
 * nor a JSON mapper writes the password by accident; hand {@link #revealPassword()} to the one
 * driver or connector that needs it.
 *
 * <pre>{@code
 * Credentials cdc = Credentials.of("lab_cdc", System.getenv("LAB_CDC_PASSWORD"));
 * DriverManager.getConnection(url, cdc.user(), cdc.revealPassword());
 * }</pre>
 */
@API(status = EXPERIMENTAL)
public final class Credentials {

  private final String user;
  private final String password;

  private Credentials(String user, String password) {
    this.user = user;
    this.password = password;
  }

  /**
   * Credentials for {@code user}; the password (may be empty) is registered with the {@link
   * Redactor}.
   */
  public static Credentials of(String user, String password) {
    Objects.requireNonNull(user, "user");
    Objects.requireNonNull(password, "password");
    Redactor.register(password);
    return new Credentials(user, password);
  }

  /** The user name; not a secret. */
  public String user() {
    return user;
  }

  /** The password, for the driver or connector that logs in with it; never log or record it. */
  public String revealPassword() {
    return password;
  }

  /** Same user and password; the hash depends on the user only. */
  @Override
  public boolean equals(@Nullable Object other) {
    return other instanceof Credentials that
        && user.equals(that.user)
        && password.equals(that.password);
  }

  @Override
  public int hashCode() {
    return user.hashCode();
  }

  /** {@code Credentials[user=lab_cdc, password=***]}, whatever the password. */
  @Override
  public String toString() {
    return "Credentials[user=" + user + ", password=" + Redactor.MASK + "]";
  }
}
