package io.reliabilitylab.catalog.rest;

import jakarta.servlet.ServletException;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.WriteListener;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpServletResponseWrapper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Wraps the REST catalog's servlet: a commit to an armed table is applied by the catalog, then its
 * response is replaced by a server error, as when a proxy or the network loses a commit's answer.
 * Iceberg's client then cannot know whether its commit landed ({@code
 * CommitStateUnknownException}).
 */
final class CommitResponseLoss extends HttpServlet {

  private static final long serialVersionUID = 1L;

  /** {@code POST /v1/[prefix/]namespaces/<ns>/tables/<table>}: a table commit. */
  private static final Pattern COMMIT =
      Pattern.compile("^/v1/(?:[^/]+/)?namespaces/([^/]+)/tables/([^/]+)$");

  private static final Pattern METADATA_LOCATION =
      Pattern.compile("\"metadata-location\"\\s*:\\s*\"([^\"]+)\"");

  private final transient HttpServlet delegate;
  private final transient Map<String, AtomicInteger> armed = new ConcurrentHashMap<>();
  private final transient Map<String, String> messages = new ConcurrentHashMap<>();
  private final transient List<EmbeddedRestCatalog.LostResponse> lost = new ArrayList<>();
  private final AtomicLong served = new AtomicLong();

  CommitResponseLoss(HttpServlet delegate) {
    this.delegate = delegate;
  }

  @Override
  public void init() throws ServletException {
    delegate.init(getServletConfig());
  }

  void arm(String table, int commits, String message) {
    messages.put(table, message);
    armed.computeIfAbsent(table, t -> new AtomicInteger()).addAndGet(commits);
  }

  synchronized List<EmbeddedRestCatalog.LostResponse> lost() {
    return List.copyOf(lost);
  }

  long served() {
    return served.get();
  }

  @Override
  protected void service(HttpServletRequest request, HttpServletResponse response)
      throws ServletException, IOException {
    served.incrementAndGet();
    String table = "POST".equals(request.getMethod()) ? committedTable(request) : null;
    AtomicInteger left = table == null ? null : armed.get(table);
    if (left == null || left.get() <= 0) {
      delegate.service(request, response);
      return;
    }
    Buffered buffered = new Buffered(response);
    delegate.service(request, buffered);
    if (buffered.status() != HttpServletResponse.SC_OK || left.getAndDecrement() <= 0) {
      buffered.copyTo(response);
      return;
    }
    synchronized (this) {
      lost.add(
          new EmbeddedRestCatalog.LostResponse(
              table, Instant.now(), metadataLocation(buffered.body())));
    }
    response.setStatus(HttpServletResponse.SC_INTERNAL_SERVER_ERROR);
    response.setContentType("application/json");
    response
        .getOutputStream()
        .write(errorBody(messages.get(table)).getBytes(StandardCharsets.UTF_8));
  }

  private static String committedTable(HttpServletRequest request) {
    String path = request.getRequestURI().substring(request.getContextPath().length());
    Matcher matcher = COMMIT.matcher(path);
    return matcher.matches() ? URLDecoder.decode(matcher.group(2), StandardCharsets.UTF_8) : null;
  }

  /** Iceberg's REST error response with {@code message}, JSON-escaped. */
  static String errorBody(String message) {
    StringBuilder escaped = new StringBuilder();
    for (char c : message.toCharArray()) {
      if (c == '"' || c == '\\') {
        escaped.append('\\').append(c);
      } else if (c < 0x20) {
        escaped.append(' ');
      } else {
        escaped.append(c);
      }
    }
    return "{\"error\":{\"message\":\""
        + escaped
        + "\",\"type\":\"ServiceFailureException\",\"code\":500}}";
  }

  /** The new metadata file the applied commit's response named; empty if none. */
  static String metadataLocation(String body) {
    Matcher matcher = METADATA_LOCATION.matcher(body);
    return matcher.find() ? matcher.group(1) : "";
  }

  /** Holds the delegate's response so that it can be dropped. */
  private static final class Buffered extends HttpServletResponseWrapper {
    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    private int status = SC_OK;
    private PrintWriter writer;

    Buffered(HttpServletResponse response) {
      super(response);
    }

    @Override
    public void setStatus(int sc) {
      status = sc;
    }

    @Override
    public void sendError(int sc, String msg) {
      status = sc;
    }

    @Override
    public void sendError(int sc) {
      status = sc;
    }

    // the length of a body that may be replaced is the container's to compute
    @Override
    public void setContentLength(int len) {}

    @Override
    public void setContentLengthLong(long len) {}

    @Override
    public int getStatus() {
      return status;
    }

    int status() {
      return status;
    }

    @Override
    public ServletOutputStream getOutputStream() {
      return new ServletOutputStream() {
        @Override
        public void write(int b) {
          bytes.write(b);
        }

        @Override
        public void write(byte[] b, int off, int len) {
          bytes.write(b, off, len);
        }

        @Override
        public boolean isReady() {
          return true;
        }

        @Override
        public void setWriteListener(WriteListener listener) {
          throw new UnsupportedOperationException("a buffered response is written at once");
        }
      };
    }

    @Override
    public PrintWriter getWriter() {
      if (writer == null) {
        writer = new PrintWriter(new OutputStreamWriter(bytes, StandardCharsets.UTF_8));
      }
      return writer;
    }

    @Override
    public void flushBuffer() {
      if (writer != null) {
        writer.flush();
      }
    }

    String body() {
      flushBuffer();
      return bytes.toString(StandardCharsets.UTF_8);
    }

    void copyTo(HttpServletResponse response) throws IOException {
      flushBuffer();
      response.setStatus(status);
      response.getOutputStream().write(bytes.toByteArray());
    }
  }
}
