package io.reliabilitylab.objectstore;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.reliabilitylab.process.LabProcess;
import io.reliabilitylab.process.LabProcesses;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.HttpURLConnection;
import java.net.InetAddress;
import java.net.Proxy;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.channels.Channels;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Pattern;
import org.apache.iceberg.CatalogProperties;
import org.apache.iceberg.aws.AwsClientProperties;
import org.apache.iceberg.aws.HttpClientProperties;
import org.apache.iceberg.aws.s3.S3FileIOProperties;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An S3-compatible object store the lab runs as a process of its own: Adobe's S3Mock (its Spring
 * Boot jar, found on the class path) started through {@link LabProcesses}, so that it is stopped on
 * every exit path of the lab and killed by a later run if the lab was killed first. Objects are
 * files under {@code directory/store/<bucket>/} (S3Mock's layout: a folder per object with its
 * bytes and its metadata) and stay there after {@link #close()}, as the run's evidence; its log is
 * {@code directory/s3mock.log}, its pid file {@code directory/s3mock.pid}.
 *
 * <p>It serves plain HTTP, path-style addressing only, without checking credentials, on {@link
 * #endpoint()} on the loopback interface. S3Mock always opens a second plain-HTTP connector, on a
 * random port of <em>all</em> interfaces (no setting binds it to one address): anyone who can reach
 * this host can read and write the store while it runs. Do not run it on a host exposed to an
 * untrusted network.
 *
 * <pre>{@code
 * try (EmbeddedObjectStore store = EmbeddedObjectStore.start(directory, "lab")) {
 *   S3FileIO io = new S3FileIO();
 *   io.initialize(store.fileIoProperties());
 *   OutputFile file = io.newOutputFile(store.warehouseLocation() + "/hello.txt");
 * }
 * }</pre>
 *
 * <p>The first start for a given S3Mock jar and JVM prepares a copy of it that starts in under 2 s
 * rather than over 3 s, which takes some 6 s once: the jar extracted, with a class-data sharing
 * archive, in {@code <java.io.tmpdir>/srl-s3mock-<user>/} ({@code
 * -Dsrl.object-store.fast-start=false} runs the jar as it is).
 */
@API(status = EXPERIMENTAL)
public final class EmbeddedObjectStore implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(EmbeddedObjectStore.class);

  static final String ROLE = "s3mock";
  static final String LOOPBACK = "127.0.0.1";
  static final String REGION = "us-east-1";
  static final Duration START_TIMEOUT = Duration.ofSeconds(60);

  /**
   * A small heap suffices (S3Mock streams objects to files); C1 only starts fastest (C2's work does
   * not pay off in a lab's run); the serial collector with a small initial heap keeps the resident
   * set near 130 MB rather than 150 to 200; a CDS archive the JVM rejects is skipped, not fatal
   * ({@code -Xshare:auto}); a store out of memory dies rather than limps.
   */
  static final List<String> JVM_OPTIONS =
      List.of(
          "-Xmx256m",
          "-Xms32m",
          "-XX:+UseSerialGC",
          "-XX:TieredStopAtLevel=1",
          "-Xshare:auto",
          "-XX:+ExitOnOutOfMemoryError");

  /** S3's rules for bucket names, the main ones (S3Mock accepts some that S3 refuses). */
  private static final Pattern BUCKET =
      Pattern.compile("(?!.*\\.\\.)[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]");

  private final LabProcess process;
  private final Path directory;
  private final String bucket;
  private final String endpoint;
  private final AtomicBoolean closed = new AtomicBoolean();

  private EmbeddedObjectStore(LabProcess process, Path directory, String bucket, String endpoint) {
    this.process = process;
    this.directory = directory;
    this.bucket = bucket;
    this.endpoint = endpoint;
  }

  /**
   * Starts a store whose files live in {@code directory/store} (created if absent), with {@code
   * bucket} created, and returns once it answers.
   *
   * @throws IllegalArgumentException if {@code bucket} is no valid S3 bucket name
   * @throws IllegalStateException if S3Mock's jar is not on the class path, or the store exits or
   *     does not answer within 60 s (the message names its log)
   * @throws UncheckedIOException if its directory cannot be created or it cannot be started
   */
  public static EmbeddedObjectStore start(Path directory, String bucket) {
    Objects.requireNonNull(directory, "directory");
    Objects.requireNonNull(bucket, "bucket");
    if (!BUCKET.matcher(bucket).matches()) {
      throw new IllegalArgumentException(
          "A bucket name is 3 to 63 lowercase letters, digits, '.' or '-', starting and ending with a"
              + " letter or digit, without '..', got '"
              + bucket
              + "'");
    }
    Path absolute = directory.toAbsolutePath().normalize();
    Path store = absolute.resolve("store");
    Path log = absolute.resolve(ROLE + ".log");
    try {
      Files.createDirectories(store);
    } catch (IOException e) {
      throw new UncheckedIOException(
          "Cannot create the object store's directory " + store + ": check its permissions", e);
    }
    FastStart.Launch launch = FastStart.prepare(S3MockJar.locate(loader()));
    long started = System.nanoTime();
    for (int attempt = 1; ; attempt++) {
      int port = freePort();
      String endpoint = "http://" + LOOPBACK + ":" + port;
      long logStart = sizeOf(log);
      LabProcess process;
      try {
        process =
            LabProcesses.start(
                ROLE,
                new ProcessBuilder(command(launch, List.of(), port, store, bucket)),
                log,
                absolute);
      } catch (IOException e) {
        throw new UncheckedIOException("Cannot start S3Mock: " + e.getMessage(), e);
      }
      boolean ready = false;
      try {
        awaitReady(process, endpoint, bucket, log, logStart);
        ready = true;
      } catch (PortTaken e) {
        if (attempt >= 2) {
          throw new IllegalStateException(
              "S3Mock could not bind a free port twice (" + port + " last); see " + log, e);
        }
        LOG.info("Port {} was taken before S3Mock bound it; trying another", port);
        continue;
      } finally {
        if (!ready) {
          process.close();
        }
      }
      LOG.info(
          "Object store (S3Mock, pid {}) at {} in {} ms, bucket {}, files in {}",
          process.pid(),
          endpoint,
          TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started),
          bucket,
          store);
      return new EmbeddedObjectStore(process, absolute, bucket, endpoint);
    }
  }

  /** Its base URL, e.g. {@code http://127.0.0.1:41234}: an S3 client's endpoint override. */
  public String endpoint() {
    return endpoint;
  }

  /** The bucket created at start. */
  public String bucket() {
    return bucket;
  }

  /** {@code s3://<bucket>/warehouse}: an Iceberg catalog's {@code warehouse}. */
  public String warehouseLocation() {
    return "s3://" + bucket + "/warehouse";
  }

  /**
   * What an Iceberg catalog or client needs to use this store through {@code S3FileIO}: pass them
   * with the catalog's properties, or to {@code S3FileIO.initialize}. They are {@code io-impl},
   * {@code s3.endpoint}, {@code s3.path-style-access=true}, {@code client.region=us-east-1}, dummy
   * {@code s3.access-key-id} and {@code s3.secret-access-key}, and {@code http-client.type=apache}.
   */
  public Map<String, String> fileIoProperties() {
    return fileIoProperties(endpoint);
  }

  static Map<String, String> fileIoProperties(String endpoint) {
    Map<String, String> properties = new LinkedHashMap<>();
    properties.put(CatalogProperties.FILE_IO_IMPL, "org.apache.iceberg.aws.s3.S3FileIO");
    properties.put(S3FileIOProperties.ENDPOINT, endpoint);
    properties.put(S3FileIOProperties.PATH_STYLE_ACCESS, "true");
    properties.put(AwsClientProperties.CLIENT_REGION, REGION);
    // Not secrets: S3Mock checks no signature (unsigned requests from an
    // AnonymousCredentialsProvider
    // work too). Static keys keep the SDK from looking for real credentials (environment, ~/.aws,
    // instance metadata), which would be slow or wrong here, and work in any Iceberg client.
    properties.put(S3FileIOProperties.ACCESS_KEY_ID, "reliability-lab");
    properties.put(S3FileIOProperties.SECRET_ACCESS_KEY, "not-a-secret");
    // the SDK's Apache client: the HTTP client this module puts on the class path
    properties.put(HttpClientProperties.CLIENT_TYPE, HttpClientProperties.CLIENT_TYPE_APACHE);
    // Nothing about checksums: S3Mock 4.11 takes the SDK's default (signed aws-chunked uploads with
    // a CRC32 trailer) and, with s3.checksum-enabled=true, Content-MD5 and MD5 ETags too.
    return Collections.unmodifiableMap(properties);
  }

  /** The store's process id. */
  public long pid() {
    return process.pid();
  }

  /** Where its files, log and pid file live. */
  public Path directory() {
    return directory;
  }

  /** Whether its process runs. */
  public boolean alive() {
    return process.alive();
  }

  /** Stops its process (SIGTERM, SIGKILL after a grace period); its files stay. Idempotent. */
  @Override
  public void close() {
    if (closed.compareAndSet(false, true)) {
      process.close();
      LOG.info("Object store at {} stopped", endpoint);
    }
  }

  @Override
  public String toString() {
    return "EmbeddedObjectStore[" + endpoint + ", bucket " + bucket + ", " + directory + "]";
  }

  /**
   * The command line: S3Mock's main connector serves plain HTTP (TLS off, which also starts faster)
   * on {@code port} of the loopback interface; its extra plain-HTTP connector cannot be turned off
   * and takes a random port.
   */
  static List<String> command(
      FastStart.Launch launch,
      List<String> extraJvmOptions,
      int port,
      Path store,
      @Nullable String bucket) {
    List<String> command = new ArrayList<>();
    command.add(javaCommand());
    command.addAll(JVM_OPTIONS);
    command.addAll(launch.jvmOptions());
    command.addAll(extraJvmOptions);
    command.add("-jar");
    command.add(launch.jar().toString());
    command.add("--server.address=" + LOOPBACK);
    command.add("--server.port=" + port);
    command.add("--server.ssl.enabled=false");
    command.add("--com.adobe.testing.s3mock.httpPort=0");
    command.add("--com.adobe.testing.s3mock.store.root=" + store);
    command.add("--com.adobe.testing.s3mock.store.retainFilesOnExit=true");
    if (bucket != null) {
      command.add("--com.adobe.testing.s3mock.store.initialBuckets=" + bucket);
    }
    command.add("--logging.level.root=WARN");
    command.add("--spring.main.banner-mode=off");
    return command;
  }

  /** This JVM's own {@code java}, so that the store runs on the JVM the lab was checked with. */
  static String javaCommand() {
    return ProcessHandle.current()
        .info()
        .command()
        .orElseGet(() -> Path.of(System.getProperty("java.home"), "bin", "java").toString());
  }

  private static @Nullable ClassLoader loader() {
    ClassLoader context = Thread.currentThread().getContextClassLoader();
    return context != null ? context : EmbeddedObjectStore.class.getClassLoader();
  }

  private static int freePort() {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName(LOOPBACK))) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot find a free port on " + LOOPBACK, e);
    }
  }

  /** Polls {@code HEAD /<bucket>} until it answers 200 (S3Mock creates the bucket lazily). */
  private static void awaitReady(
      LabProcess process, String endpoint, String bucket, Path log, long logStart) {
    long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
    URI probe = URI.create(endpoint + "/" + bucket);
    String last = "no answer";
    while (true) {
      if (!process.alive()) {
        String output = readFrom(log, logStart);
        if (output.contains("already in use")) {
          throw new PortTaken();
        }
        throw new IllegalStateException(
            "S3Mock exited with status "
                + process.exitCode().map(String::valueOf).orElse("?")
                + " before it answered on "
                + endpoint
                + "; see "
                + log);
      }
      try {
        int status = head(probe);
        if (status == HttpURLConnection.HTTP_OK) {
          return;
        }
        last = "HTTP " + status;
      } catch (IOException e) {
        last = e.toString();
      }
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException(
            "S3Mock did not answer HEAD "
                + probe
                + " within "
                + START_TIMEOUT.toSeconds()
                + " s (last: "
                + last
                + "); see "
                + log);
      }
      try {
        Thread.sleep(50);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("Interrupted while waiting for S3Mock at " + endpoint, e);
      }
    }
  }

  private static int head(URI uri) throws IOException {
    HttpURLConnection connection = (HttpURLConnection) uri.toURL().openConnection(Proxy.NO_PROXY);
    try {
      connection.setRequestMethod("HEAD");
      connection.setConnectTimeout(1_000);
      // the first request initialises S3Mock's lazily created beans
      connection.setReadTimeout(20_000);
      return connection.getResponseCode();
    } finally {
      connection.disconnect();
    }
  }

  private static long sizeOf(Path file) {
    try {
      return Files.exists(file) ? Files.size(file) : 0;
    } catch (IOException e) {
      return 0;
    }
  }

  /** What was appended to {@code file} from {@code offset} on (at most 64 KiB of it). */
  private static String readFrom(Path file, long offset) {
    try (SeekableByteChannel channel = Files.newByteChannel(file)) {
      channel.position(offset);
      try (InputStream in = Channels.newInputStream(channel)) {
        return new String(in.readNBytes(64 * 1024), StandardCharsets.UTF_8);
      }
    } catch (IOException e) {
      return "";
    }
  }

  /** S3Mock exited because its port was taken between our probe and its bind. */
  private static final class PortTaken extends RuntimeException {
    private static final long serialVersionUID = 1L;

    PortTaken() {
      super(null, null, false, false);
    }
  }
}
