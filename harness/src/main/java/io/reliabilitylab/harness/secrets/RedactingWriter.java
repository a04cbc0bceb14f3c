package io.reliabilitylab.harness.secrets;

import io.reliabilitylab.spi.secret.Redactor;
import java.io.IOException;
import java.io.Writer;
import java.util.Objects;

/**
 * The console as the lab prints to it: every line passes {@link Redactor#redact} on its way out, so
 * that a URL or message the lab prints itself (a scenario's source, an error's one line) shows no
 * secret, as its log lines do. Text is held until its line ends, or until a flush, so that a secret
 * is never split across two writes.
 */
public final class RedactingWriter extends Writer {
  private final Writer out;
  private final StringBuilder line = new StringBuilder();

  public RedactingWriter(Writer out) {
    this.out = Objects.requireNonNull(out, "out");
  }

  @Override
  public synchronized void write(char[] buffer, int offset, int length) throws IOException {
    for (int i = offset; i < offset + length; i++) {
      line.append(buffer[i]);
      if (buffer[i] == '\n') {
        writeLine();
      }
    }
  }

  @Override
  public synchronized void flush() throws IOException {
    writeLine();
    out.flush();
  }

  @Override
  public synchronized void close() throws IOException {
    flush();
    out.close();
  }

  private void writeLine() throws IOException {
    if (line.length() > 0) {
      out.write(Redactor.redact(line.toString()));
      line.setLength(0);
    }
  }
}
