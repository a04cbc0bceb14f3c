package io.reliabilitylab.source.jdbc;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.reliabilitylab.spi.pipeline.SourceEndpoint;
import io.reliabilitylab.spi.secret.Redactor;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;
import org.apiguardian.api.API;

/**
 * A source's JDBC URL checked the way the lab needs it: the expected scheme, one host, a database,
 * and no credentials (passwords are given apart, so that they never reach a log or a record). Each
 * refusal is one line saying what to write instead; a URL shown in one is redacted.
 */
@API(status = EXPERIMENTAL)
public final class JdbcUrls {

  /** Host, port (the default where the URL names none) and database of a checked URL. */
  public record Parts(String host, int port, String database) {}

  private JdbcUrls() {}

  /**
   * Checks {@code url} against {@code scheme} (e.g. {@code mysql}, {@code postgresql}) and returns
   * its parts; {@code defaultPort} where it names no port, {@code note} appended to the
   * wrong-scheme refusal (e.g. which driver the lab uses).
   */
  public static Parts parse(String url, String scheme, int defaultPort, String note) {
    String shown = Redactor.redact(url);
    String form = "jdbc:" + scheme + "://host:port/database";
    if (!url.toLowerCase(Locale.ROOT).startsWith("jdbc:" + scheme + "://")) {
      throw new IllegalArgumentException(
          "The source URL '" + shown + "' is not a jdbc:" + scheme + ":// URL" + note);
    }
    URI uri;
    try {
      uri = new URI(url.substring("jdbc:".length()));
    } catch (URISyntaxException e) {
      throw new IllegalArgumentException(
          "The source URL '" + shown + "' cannot be parsed (" + e.getReason() + "): use " + form,
          e);
    }
    if (uri.getRawUserInfo() != null || SourceEndpoint.holdsCredentials(url)) {
      throw new IllegalArgumentException(
          "The source URL '"
              + shown
              + "' holds credentials: remove them from the URL and give the password"
              + " separately (--source-password), so that it never reaches a log or a record");
    }
    String host = uri.getHost();
    if (host == null || host.isEmpty() || url.indexOf(',') >= 0) {
      throw new IllegalArgumentException(
          "The source URL '" + shown + "' names no single host: use " + form + " (one host)");
    }
    int port = uri.getPort() < 0 ? defaultPort : uri.getPort();
    String path = uri.getPath() == null ? "" : uri.getPath();
    String database = path.startsWith("/") ? path.substring(1) : path;
    if (database.isEmpty() || database.contains("/")) {
      throw new IllegalArgumentException(
          "The source URL '"
              + shown
              + "' names no database: add it to the path, e.g. jdbc:"
              + scheme
              + "://"
              + host
              + ":"
              + port
              + "/lab");
    }
    return new Parts(host, port, database);
  }
}
