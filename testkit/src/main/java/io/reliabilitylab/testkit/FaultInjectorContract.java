package io.reliabilitylab.testkit;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.junit.jupiter.api.Assumptions.abort;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.reliabilitylab.spi.fault.FaultContext;
import io.reliabilitylab.spi.fault.FaultEvidence;
import io.reliabilitylab.spi.fault.FaultHandle;
import io.reliabilitylab.spi.fault.FaultInjector;
import io.reliabilitylab.spi.fault.FaultPosition;
import io.reliabilitylab.spi.fault.FaultSpec;
import io.reliabilitylab.spi.fault.FaultStatus;
import io.reliabilitylab.spi.fault.RecoveryEvidence;
import io.reliabilitylab.spi.pipeline.PipelineCapability;
import io.reliabilitylab.spi.pipeline.PipelineUnderTest;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The contract every {@link FaultInjector} keeps, as JUnit 5 tests: extend this class and implement
 * {@link #createInjector()}.
 *
 * <pre>{@code
 * class TaskFailureContractTest extends FaultInjectorContract {
 *   @Override
 *   protected FaultInjector createInjector() {
 *     return new TaskFailureInjector();
 *   }
 * }
 * }</pre>
 *
 * It proves that the fault is well named, discoverable, declares what it needs, and never claims to
 * have fired on a {@link BarePipeline} that offers no capabilities. Give it a pipeline that has the
 * fault's capabilities through {@link #pipelineWithCapabilities()} and it also proves, live, that
 * the fault fires with proof and the pipeline recovers; without one those tests are skipped, and
 * the report says so.
 */
@API(status = EXPERIMENTAL)
public abstract class FaultInjectorContract {

  /** The fault's work directory in every injection. */
  @TempDir Path workDirectory;

  /** A new instance of the fault under test. */
  protected abstract FaultInjector createInjector();

  /**
   * A running pipeline with every capability the fault requires, for the live tests, e.g. a {@link
   * io.reliabilitylab.testkit.simulated.SimulatedPipeline#running()}; empty (the default) skips
   * them. The kit does not close it: own its lifecycle, e.g. in {@code @AfterEach} or
   * {@code @BeforeAll}/{@code @AfterAll}.
   */
  protected Optional<PipelineUnderTest> pipelineWithCapabilities() {
    return Optional.empty();
  }

  /** The deadline of every wait in the live tests. */
  protected Duration liveTimeout() {
    return Duration.ofSeconds(60);
  }

  /**
   * The injection the tests make: id {@code srl-fault-1-<name>}, at an example of the first
   * supported position kind.
   */
  protected FaultSpec spec(FaultInjector injector) {
    FaultPosition.Kind kind =
        injector.supportedPositions().stream()
            .min(Comparator.naturalOrder())
            .orElseThrow(() -> new AssertionError(injector.name() + " supports no fault position"));
    return new FaultSpec(
        "srl-fault-1-" + injector.name(), injector.name(), examplePosition(kind), Map.of());
  }

  /** An example position of a kind, early in a run: the first checkpoint, the tenth event. */
  protected FaultPosition examplePosition(FaultPosition.Kind kind) {
    return switch (kind) {
      case NOW -> new FaultPosition.Now();
      case AFTER_EVENT -> new FaultPosition.AfterEvent(10);
      case AT_CHECKPOINT -> new FaultPosition.AtCheckpoint(1);
      case AROUND_COMMIT -> new FaultPosition.AroundCommit(1, false);
      case SNAPSHOT_PHASE -> new FaultPosition.SnapshotPhase(10);
    };
  }

  @Test
  @DisplayName("has a kebab-case name and a one-line description")
  void hasAKebabCaseNameAndAOneLineDescription() {
    Plugins.assertWellNamed(createInjector());
  }

  @Test
  @DisplayName("is found by ServiceLoader under its name, as an instance of its own class")
  void isFoundByServiceLoaderUnderItsName() {
    Plugins.assertDiscoverable(FaultInjector.class, createInjector());
  }

  @Test
  @DisplayName("declares the capabilities it requires and at least one position it supports")
  void declaresItsCapabilitiesAndPositions() {
    FaultInjector injector = createInjector();
    assertThat(injector.requiredCapabilities())
        .as("requiredCapabilities() of %s", injector.name())
        .isNotNull()
        .doesNotContainNull();
    assertThat(injector.supportedPositions())
        .as("supportedPositions() of %s", injector.name())
        .isNotNull()
        .doesNotContainNull()
        .isNotEmpty();
  }

  @Test
  @DisplayName(
      "never claims to have fired on a pipeline without capabilities: it is skipped or refused,"
          + " naming what is missing")
  void neverClaimsToHaveFiredOnAPipelineWithoutCapabilities() throws Exception {
    FaultInjector injector = createInjector();
    Set<Class<? extends PipelineCapability>> required = injector.requiredCapabilities();
    FaultSpec spec = spec(injector);
    FaultHandle handle;
    try {
      handle = injector.inject(bareContext(spec));
    } catch (Exception e) {
      assertThat(required)
          .as(
              "%s requires no capability, so it must not refuse a bare pipeline, but threw %s",
              injector.name(), e)
          .isNotEmpty();
      assertThat(namesACapability(String.valueOf(e.getMessage()), required))
          .as(
              "%s refused a bare pipeline with '%s', which names none of the missing capabilities"
                  + " %s",
              injector.name(), e.getMessage(), simpleNames(required))
          .isTrue();
      return;
    }
    try {
      FaultEvidence evidence = handle.evidence();
      FaultEvidence awaited = handle.awaitFired(Duration.ofMillis(200));
      for (FaultEvidence seen : List.of(evidence, awaited)) {
        assertThat(seen.status())
            .as("status of %s on a pipeline without capabilities: %s", injector.name(), seen)
            .isNotEqualTo(FaultStatus.FIRED);
        assertThat(seen.faultId())
            .as("faultId of %s's evidence", injector.name())
            .isEqualTo(spec.id());
        assertThat(seen.fault()).as("fault named in the evidence").isEqualTo(injector.name());
        if (!required.isEmpty()) {
          assertThat(seen.status())
              .as(
                  "status of %s on a pipeline lacking %s: %s",
                  injector.name(), simpleNames(required), seen)
              .isEqualTo(FaultStatus.SKIPPED);
          assertThat(namesACapability(seen.reason(), required))
              .as(
                  "reason '%s' of the skipped %s names one of the missing capabilities %s",
                  seen.reason(), injector.name(), simpleNames(required))
              .isTrue();
        }
      }
    } finally {
      handle.close();
    }
  }

  @Test
  @DisplayName("closes a handle twice without throwing")
  void closesAHandleTwiceWithoutThrowing() {
    FaultInjector injector = createInjector();
    FaultHandle handle = injectIntoBarePipelineOrAbort(injector);
    assertThatCode(
            () -> {
              handle.close();
              handle.close();
            })
        .as("closing the handle of %s twice", injector.name())
        .doesNotThrowAnyException();
  }

  private FaultHandle injectIntoBarePipelineOrAbort(FaultInjector injector) {
    try {
      return injector.inject(bareContext(spec(injector)));
    } catch (Exception e) {
      return abort(
          injector.name()
              + " refuses a bare pipeline, so closing is proven only by the live test: "
              + e.getMessage());
    }
  }

  @Test
  @DisplayName(
      "fires with proof and lets the pipeline recover, on a pipeline with its capabilities (live)")
  void firesWithProofAndRecoversOnAPipelineWithItsCapabilities() throws Exception {
    FaultInjector injector = createInjector();
    Optional<PipelineUnderTest> live = pipelineWithCapabilities();
    assumeTrue(
        live.isPresent(),
        "no pipelineWithCapabilities() was given, so the live part of the contract of "
            + injector.name()
            + " did not run");
    PipelineUnderTest pipeline = live.orElseThrow();
    List<String> missing = new ArrayList<>();
    for (Class<? extends PipelineCapability> type : injector.requiredCapabilities()) {
      if (pipeline.capability(type).isEmpty()) {
        missing.add(type.getSimpleName());
      }
    }
    assertThat(missing)
        .as(
            "capabilities %s requires that pipelineWithCapabilities() '%s' lacks",
            injector.name(), pipeline.name())
        .isEmpty();
    FaultSpec spec = spec(injector);
    Duration timeout = liveTimeout();
    FaultHandle handle =
        injector.inject(
            new FaultContext(pipeline, spec, Clock.systemUTC(), timeout, workDirectory));
    try {
      FaultEvidence evidence = handle.awaitFired(timeout);
      assertThat(evidence.status())
          .as("status of %s after awaitFired(%s): %s", injector.name(), timeout, evidence)
          .isEqualTo(FaultStatus.FIRED);
      assertThat(evidence.proofs()).as("proofs that %s fired", injector.name()).isNotEmpty();
      assertThat(evidence.firedAt()).as("firedAt of %s", injector.name()).isNotNull();
      assertThat(evidence.faultId())
          .as("faultId of %s's evidence", injector.name())
          .isEqualTo(spec.id());
      assertThat(evidence.fault()).as("fault named in the evidence").isEqualTo(injector.name());
      RecoveryEvidence recovery = handle.awaitRecovery(timeout);
      assertThat(recovery.recovered())
          .as("whether the pipeline recovered from %s: %s", injector.name(), recovery)
          .isTrue();
    } finally {
      assertThatCode(
              () -> {
                handle.close();
                handle.close();
              })
          .as("closing the handle of %s twice", injector.name())
          .doesNotThrowAnyException();
    }
  }

  private FaultContext bareContext(FaultSpec spec) {
    return new FaultContext(
        BarePipeline.create(), spec, Clock.systemUTC(), Duration.ofSeconds(5), workDirectory);
  }

  /** Whether text names a capability as {@code JobControl}, or {@code job-control}. */
  private static boolean namesACapability(
      @Nullable String text, Set<Class<? extends PipelineCapability>> capabilities) {
    if (text == null || text.isBlank()) {
      return false;
    }
    String lower = text.toLowerCase(Locale.ROOT);
    for (Class<? extends PipelineCapability> type : capabilities) {
      String simple = type.getSimpleName();
      String kebab = simple.replaceAll("([a-z0-9])([A-Z])", "$1-$2").toLowerCase(Locale.ROOT);
      if (lower.contains(simple.toLowerCase(Locale.ROOT)) || lower.contains(kebab)) {
        return true;
      }
    }
    return false;
  }

  private static List<String> simpleNames(Set<Class<? extends PipelineCapability>> capabilities) {
    return capabilities.stream().map(Class::getSimpleName).sorted().toList();
  }
}
