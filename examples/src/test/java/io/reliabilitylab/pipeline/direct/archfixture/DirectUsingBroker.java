package io.reliabilitylab.pipeline.direct.archfixture;

import io.reliabilitylab.pipeline.broker.archfixture.BrokerPart;

/** A direct-pipeline class that reaches into the broker pipeline: the rule must reject it. */
public final class DirectUsingBroker {

  private DirectUsingBroker() {}

  /** Depends on the broker pipeline. */
  public static String use() {
    return BrokerPart.NAME + new BrokerPart();
  }
}
