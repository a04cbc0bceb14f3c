package io.reliabilitylab.pipeline.broker.kafka;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apiguardian.api.API;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Embedded brokers shared by the scenarios of one JVM, so that a broker suite starts its broker
 * once: each scenario publishes to topics of its own on it. A broker serves one lease at a time (a
 * second pipeline running at once gets a broker of its own); a lease's {@code close()} hands it
 * back, and the next {@link #acquire} starts it again if a scenario left it stopped (a broker
 * restart that did not finish). A reused broker keeps the log directory it was started in; one
 * whose directory was deleted meanwhile is stopped and replaced. Every shared broker stops at JVM
 * exit or by {@link #closeAll()}.
 *
 * <pre>{@code
 * try (LabKafkaBroker broker = SharedKafkaBrokers.acquire(scenarioDirectory.resolve("kafka"))) {
 *   broker.topics().createTopic("lab.lab.orders." + scenarioId, 3);
 * } // still running, for the next scenario
 * }</pre>
 */
@API(status = EXPERIMENTAL)
public final class SharedKafkaBrokers {

  private static final Logger LOG = LoggerFactory.getLogger(SharedKafkaBrokers.class);
  private static final Deque<EmbeddedKafkaBroker> IDLE = new ArrayDeque<>();
  private static final Set<EmbeddedKafkaBroker> ALL = new LinkedHashSet<>();

  static {
    Runtime.getRuntime()
        .addShutdownHook(new Thread(SharedKafkaBrokers::closeAll, "srl-shared-brokers-stop"));
  }

  private SharedKafkaBrokers() {}

  /**
   * An idle shared broker, running, or a new one started with its files under {@code directory}.
   */
  public static LabKafkaBroker acquire(Path directory) {
    Objects.requireNonNull(directory, "directory");
    EmbeddedKafkaBroker idle;
    while ((idle = takeIdle()) != null) {
      if (!Files.isDirectory(idle.logDirectory())) {
        // its files were deleted with the directory of the scenario that started it (a test's
        // temporary directory): it cannot create the next scenario's topics
        LOG.info(
            "The shared Kafka broker's log directory {} is gone; starting a new broker",
            idle.logDirectory());
        forget(idle);
        idle.close();
        continue;
      }
      try {
        if (!idle.isRunning()) {
          LOG.info("The shared Kafka broker was left stopped; starting it again");
          idle.start();
        }
        LOG.info("Reusing Kafka broker {} ({})", idle.bootstrapServers(), idle.describe());
        return new Lease(idle);
      } catch (RuntimeException e) {
        LOG.warn("The shared Kafka broker cannot start again ({}); stopping it", e.toString());
        forget(idle);
        idle.close();
      }
    }
    EmbeddedKafkaBroker started = EmbeddedKafkaBroker.builder(directory).build();
    synchronized (SharedKafkaBrokers.class) {
      ALL.add(started);
    }
    try {
      started.start();
    } catch (RuntimeException e) {
      forget(started);
      started.close();
      throw e;
    }
    return new Lease(started);
  }

  /** Stops every shared broker; their directories stay. */
  public static void closeAll() {
    List<EmbeddedKafkaBroker> all;
    synchronized (SharedKafkaBrokers.class) {
      all = new ArrayList<>(ALL);
      ALL.clear();
      IDLE.clear();
    }
    all.forEach(EmbeddedKafkaBroker::close);
  }

  private static synchronized EmbeddedKafkaBroker takeIdle() {
    return IDLE.poll();
  }

  private static synchronized void forget(EmbeddedKafkaBroker broker) {
    ALL.remove(broker);
    IDLE.remove(broker);
  }

  private static synchronized void handBack(EmbeddedKafkaBroker broker) {
    if (ALL.contains(broker)) {
      IDLE.push(broker);
    }
  }

  /** One scenario's use of a shared broker: everything but {@code close()} goes to the broker. */
  private static final class Lease implements LabKafkaBroker {
    private final EmbeddedKafkaBroker broker;
    private final AtomicBoolean released = new AtomicBoolean();

    Lease(EmbeddedKafkaBroker broker) {
      this.broker = broker;
    }

    @Override
    public BrokerTransition start() {
      return broker.start();
    }

    @Override
    public BrokerTransition stop() {
      return broker.stop();
    }

    @Override
    public String bootstrapServers() {
      return broker.bootstrapServers();
    }

    @Override
    public java.util.Optional<ProxiedListener> proxiedListener() {
      return broker.proxiedListener();
    }

    @Override
    public Path logDirectory() {
      return broker.logDirectory();
    }

    @Override
    public KafkaTopics topics() {
      return broker.topics();
    }

    @Override
    public String describe() {
      return broker.describe() + ", shared by the scenarios of this JVM";
    }

    /** Leaves the broker running and hands it back for the next lease (once). */
    @Override
    public void close() {
      if (released.compareAndSet(false, true)) {
        handBack(broker);
      }
    }
  }
}
