package io.reliabilitylab.runner.discovery;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/**
 * A selection that cannot be honoured: an unknown name, or implementations that are broken or
 * ambiguous. The message names what is available or which classes clash.
 */
@API(status = EXPERIMENTAL)
public final class DiscoveryException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  DiscoveryException(String message) {
    super(message);
  }
}
