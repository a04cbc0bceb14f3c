package io.reliabilitylab.pipeline.broker.archfixture;

/** A broker-pipeline class the direct fixture depends on. */
public final class BrokerPart {

  /** A constant to depend on. */
  public static final String NAME = "broker";
}
