package io.reliabilitylab.pipeline.flink.faults;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/** The exception an armed fault point throws; its message starts with the fault id. */
@API(status = EXPERIMENTAL)
public final class InjectedFaultException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  private final String faultId;

  InjectedFaultException(String faultId, String message) {
    super(message);
    this.faultId = faultId;
  }

  /** The id of the fault that threw this. */
  public String faultId() {
    return faultId;
  }
}
