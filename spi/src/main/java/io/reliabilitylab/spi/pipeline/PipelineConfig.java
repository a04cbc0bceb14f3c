package io.reliabilitylab.spi.pipeline;

import static org.apiguardian.api.API.Status.STABLE;

import io.reliabilitylab.spi.secret.Redactor;
import java.nio.file.Path;
import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import org.apiguardian.api.API;

/**
 * What a pipeline is created with: the source it reads, options (intervals, directories, table
 * names), and a working directory it owns. Option keys are dotted lower case, e.g. {@code
 * sink.warehouse-path}; secrets never travel in options (the source's password is in {@link
 * SourceEndpoint#credentials()}).
 *
 * @param source the source table and the account the pipeline's connector reads it with
 * @param options the options, by key
 * @param workDirectory a directory the pipeline may use and leaves behind for evidence
 * @param onJobSubmitted called once the job is submitted, before the pipeline awaits it streaming
 *     (see {@link JobSubmittedListener}); a pipeline that cannot call it must say so in its start
 */
@API(status = STABLE)
public record PipelineConfig(
    SourceEndpoint source,
    Map<String, String> options,
    Path workDirectory,
    JobSubmittedListener onJobSubmitted) {

  public PipelineConfig {
    Objects.requireNonNull(source, "source");
    options = Collections.unmodifiableMap(new TreeMap<>(options));
    Objects.requireNonNull(workDirectory, "workDirectory");
    Objects.requireNonNull(onJobSubmitted, "onJobSubmitted");
  }

  /** A configuration whose start needs no call once the job is submitted. */
  public PipelineConfig(SourceEndpoint source, Map<String, String> options, Path workDirectory) {
    this(source, options, workDirectory, JobSubmittedListener.NONE);
  }

  /** An option's value, if set. */
  public Optional<String> option(String key) {
    return Optional.ofNullable(options.get(key));
  }

  /** An option's value, or a default. */
  public String option(String key, String defaultValue) {
    return options.getOrDefault(key, defaultValue);
  }

  /** The source (its password masked), the options with secrets masked, the work directory. */
  @Override
  public String toString() {
    return "PipelineConfig[source="
        + source
        + ", options="
        + Redactor.redactProperties(options)
        + ", workDirectory="
        + workDirectory
        + "]";
  }
}
