package io.reliabilitylab.site;

import static org.apiguardian.api.API.Status.INTERNAL;

import org.apiguardian.api.API;

/** The site cannot be built as written; the message names the page, the line and the fix. */
@API(status = INTERNAL)
public final class SiteBuildException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  SiteBuildException(String message) {
    super(message);
  }

  SiteBuildException(String message, Throwable cause) {
    super(message, cause);
  }
}
