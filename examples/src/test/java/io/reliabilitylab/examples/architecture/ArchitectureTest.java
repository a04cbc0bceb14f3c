package io.reliabilitylab.examples.architecture;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import io.reliabilitylab.harness.cli.ReliabilityLab;
import io.reliabilitylab.spi.Named;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The dependency direction of DESIGN.md: {@code spi} ← {@code testkit}, {@code faults-core}, {@code
 * checks-core} ← {@code harness} ← {@code pipeline-flink} ← the two pipelines, which never meet.
 * Runs here because {@code examples} sees every module.
 */
class ArchitectureTest {

  private static final JavaClasses lab =
      new ClassFileImporter()
          .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
          // Relocated third-party code (Flink CDC's Debezium 1.9) is not ours to judge.
          .withImportOption(location -> !location.contains("/io/reliabilitylab/shaded/"))
          .importPackages("io.reliabilitylab");

  private static final ArchRule SPI_DEPENDS_ON_THE_JDK_ONLY =
      classes()
          .that()
          .resideInAPackage("io.reliabilitylab.spi..")
          .should()
          .onlyDependOnClassesThat()
          .resideInAnyPackage(
              "java..", "org.jspecify..", "org.apiguardian..", "io.reliabilitylab.spi..")
          .because("plugin authors implement the SPI without any engine on their class path");

  private static final ArchRule DIRECT_NEVER_USES_BROKER =
      noClasses()
          .that()
          .resideInAPackage("io.reliabilitylab.pipeline.direct..")
          .should()
          .dependOnClassesThat()
          .resideInAPackage("io.reliabilitylab.pipeline.broker..")
          .because("Flink CDC bundles Debezium 1.9 and the broker pipeline uses Debezium 3.x")
          // The pipelines are still empty; the rule must already hold when their classes arrive.
          .allowEmptyShould(true);

  @Test
  void theSpiDependsOnTheJdkAndAnnotationsOnly() {
    SPI_DEPENDS_ON_THE_JDK_ONLY.check(lab);
  }

  @Test
  void theDirectPipelineNeverDependsOnTheBrokerPipeline() {
    DIRECT_NEVER_USES_BROKER.check(lab);
  }

  @Test
  void theBrokerPipelineNeverDependsOnTheDirectPipeline() {
    noClasses()
        .that()
        .resideInAPackage("io.reliabilitylab.pipeline.broker..")
        .should()
        .dependOnClassesThat()
        .resideInAPackage("io.reliabilitylab.pipeline.direct..")
        .because("Flink CDC bundles Debezium 1.9 and the broker pipeline uses Debezium 3.x")
        .allowEmptyShould(true)
        .check(lab);
  }

  @Test
  void theSharedFlinkPartDependsOnNeitherPipelineNorOnAnyDebezium() {
    noClasses()
        .that()
        .resideInAPackage("io.reliabilitylab.pipeline.flink..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(
            "io.reliabilitylab.pipeline.direct..",
            "io.reliabilitylab.pipeline.broker..",
            "io.debezium..",
            "io.reliabilitylab.shaded..")
        .because(
            "both pipelines build on pipeline-flink; each brings its own source (Flink CDC with a"
                + " relocated Debezium 1.9, or Debezium 3.x)")
        .check(lab);
  }

  @Test
  void checksFaultsAndTheTestkitDependOnNeitherTheHarnessNorThePipelines() {
    noClasses()
        .that(areIn("checks-core", "faults-core", "testkit"))
        .should()
        .dependOnClassesThat(
            areIn("harness", "pipeline-flink", "pipeline-direct", "pipeline-broker", "examples")
                .or(
                    resideInAnyPackage(
                        "io.reliabilitylab.harness..",
                        "io.reliabilitylab.pipeline..",
                        "io.reliabilitylab.examples..")))
        .because(
            "dependencies point one way: spi <- {testkit, faults-core, checks-core} <- harness")
        .check(lab);
  }

  @Test
  void theHarnessDoesNotDependOnThePipelines() {
    noClasses()
        .that(areIn("harness"))
        .should()
        .dependOnClassesThat(
            areIn("pipeline-flink", "pipeline-direct", "pipeline-broker", "examples")
                .or(
                    resideInAnyPackage(
                        "io.reliabilitylab.pipeline..", "io.reliabilitylab.examples..")))
        .because("the harness finds pipelines by name through PipelineProvider and ServiceLoader")
        .check(lab);
  }

  @Test
  void theModulePredicateRecognisesEachModulesClasses() {
    // Without this the module rules above could pass vacuously on a class path laid out
    // differently (reactor target/classes versus installed jars).
    assertThat(areIn("harness").test(lab.get(ReliabilityLab.class))).isTrue();
    assertThat(areIn("spi").test(lab.get(Named.class))).isTrue();
    assertThat(areIn("spi").test(lab.get(ReliabilityLab.class))).isFalse();
    assertThat(areIn("harness").test(lab.get(Named.class))).isFalse();
  }

  @Test
  void theRulesRejectDeliberateViolations() {
    // Negative controls from this module's test sources, which the rules above never see.
    JavaClasses violations =
        new ClassFileImporter()
            .importPackages(
                "io.reliabilitylab.spi.archfixture",
                "io.reliabilitylab.pipeline.direct.archfixture",
                "io.reliabilitylab.pipeline.broker.archfixture");
    assertThatThrownBy(() -> SPI_DEPENDS_ON_THE_JDK_ONLY.check(violations))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("SpiTypeUsingALibrary")
        .hasMessageContaining("org.assertj");
    assertThatThrownBy(() -> DIRECT_NEVER_USES_BROKER.check(violations))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("DirectUsingBroker")
        .hasMessageContaining("BrokerPart");
  }

  /**
   * Classes that come from one of our modules, judged by where they were loaded from: the module's
   * jar ({@code reliability-lab-<module>-<version>.jar}) or its {@code <module>/target/classes}.
   */
  private static DescribedPredicate<JavaClass> areIn(String... modules) {
    List<String> names = Arrays.asList(modules);
    return DescribedPredicate.describe(
        "are in module " + String.join(" or ", names),
        javaClass ->
            javaClass
                .getSource()
                .map(source -> source.getUri().toString())
                .map(uri -> names.stream().anyMatch(module -> isFrom(uri, module)))
                .orElse(false));
  }

  private static boolean isFrom(String uri, String module) {
    return uri.contains("/reliability-lab-" + module + "-")
        || uri.contains("/" + module + "/target/classes/");
  }
}
