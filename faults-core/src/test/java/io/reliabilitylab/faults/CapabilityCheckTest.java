package io.reliabilitylab.faults;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import io.reliabilitylab.kit.CapabilityCheck;
import io.reliabilitylab.spi.data.DeliverySemantics;
import io.reliabilitylab.spi.fault.FaultContext;
import io.reliabilitylab.spi.fault.FaultEvidence;
import io.reliabilitylab.spi.fault.FaultHandle;
import io.reliabilitylab.spi.fault.FaultInjector;
import io.reliabilitylab.spi.fault.FaultPosition;
import io.reliabilitylab.spi.fault.FaultSpec;
import io.reliabilitylab.spi.fault.FaultStatus;
import io.reliabilitylab.spi.pipeline.JobControl;
import io.reliabilitylab.spi.pipeline.PipelineCapability;
import io.reliabilitylab.spi.pipeline.PipelineUnderTest;
import io.reliabilitylab.spi.pipeline.TaskManagerControl;
import io.reliabilitylab.testkit.BarePipeline;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

class CapabilityCheckTest {

  private static final Instant NOW = Instant.parse("2026-01-01T00:00:00Z");

  private final FaultInjector taskFailure =
      new FaultInjector() {
        @Override
        public String name() {
          return "task-failure";
        }

        @Override
        public String description() {
          return "test double: never injected";
        }

        @Override
        public Set<Class<? extends PipelineCapability>> requiredCapabilities() {
          return Set.of(TaskManagerControl.class, JobControl.class);
        }

        @Override
        public FaultHandle inject(FaultContext context) {
          throw new UnsupportedOperationException("only its requirements are used here");
        }
      };

  @Test
  void aPipelineWithoutCapabilitiesLacksEveryRequiredOneInNameOrder() {
    assertThat(CapabilityCheck.missing(taskFailure, BarePipeline.create()))
        .containsExactly(JobControl.class, TaskManagerControl.class);
  }

  @Test
  void aCapabilityOfferedAsASubtypeCounts() {
    PipelineUnderTest pipeline = offering(Set.of(TaskManagerControl.class, RichJobControl.class));

    assertThat(CapabilityCheck.missing(taskFailure, pipeline)).isEmpty();
    assertThat(CapabilityCheck.skipReason(taskFailure, pipeline)).isEmpty();
  }

  @Test
  void theReasonNamesThePipelineTheFaultAndEachMissingCapability() {
    PipelineUnderTest pipeline = offering(Set.of(JobControl.class));

    assertThat(CapabilityCheck.skipReason(taskFailure, pipeline))
        .contains(
            "pipeline 'partial' lacks TaskManagerControl, which fault 'task-failure' requires");
  }

  @Test
  void aMissingCapabilityGivesASkippedHandleThatNeverFiresAndClosesTwice() throws Exception {
    FaultSpec spec =
        new FaultSpec(
            FaultIds.of(1, "task-failure"), "task-failure", new FaultPosition.Now(), Map.of());
    FaultContext context =
        new FaultContext(
            BarePipeline.create(),
            spec,
            Clock.fixed(NOW, ZoneOffset.UTC),
            Duration.ofSeconds(1),
            Path.of("unused"));

    FaultHandle handle = CapabilityCheck.skipIfMissing(taskFailure, context).orElseThrow();
    FaultEvidence evidence = handle.awaitFired(Duration.ofSeconds(1));

    assertThat(evidence.status()).isEqualTo(FaultStatus.SKIPPED);
    assertThat(evidence.faultId()).isEqualTo(spec.id());
    assertThat(evidence.injectedAt()).isEqualTo(NOW);
    assertThat(evidence.reason()).contains("JobControl", "TaskManagerControl");
    assertThat(handle.awaitRecovery(Duration.ofSeconds(1)).recovered()).isFalse();
    assertThatCode(
            () -> {
              handle.close();
              handle.close();
            })
        .doesNotThrowAnyException();
  }

  @Test
  void nothingMissingMeansNoSkippedHandle() {
    PipelineUnderTest pipeline = offering(Set.of(JobControl.class, TaskManagerControl.class));
    FaultSpec spec =
        new FaultSpec(
            FaultIds.of(2, "task-failure"), "task-failure", new FaultPosition.Now(), Map.of());
    FaultContext context =
        new FaultContext(
            pipeline, spec, Clock.systemUTC(), Duration.ofSeconds(1), Path.of("unused"));

    assertThat(CapabilityCheck.skipIfMissing(taskFailure, context)).isEmpty();
  }

  private interface RichJobControl extends JobControl {}

  private static PipelineUnderTest offering(Set<Class<? extends PipelineCapability>> types) {
    return new PipelineUnderTest() {
      @Override
      public String name() {
        return "partial";
      }

      @Override
      public DeliverySemantics semantics() {
        return DeliverySemantics.AT_LEAST_ONCE;
      }

      @Override
      public Set<Class<? extends PipelineCapability>> capabilities() {
        return types;
      }

      @Override
      public <T extends PipelineCapability> Optional<T> capability(Class<T> type) {
        return Optional.empty();
      }

      @Override
      public Map<String, String> effectiveConfiguration() {
        return Map.of();
      }

      @Override
      public Map<String, String> stackVersions() {
        return Map.of();
      }

      @Override
      public void close() {}
    };
  }
}
