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
import io.reliabilitylab.junit.ReliabilityLabExtension;
import io.reliabilitylab.runner.ScenarioRunner;
import io.reliabilitylab.spi.Named;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The dependency direction of DESIGN.md: {@code spi} ← {@code testkit}, {@code faults-core}, {@code
 * checks-core}, {@code workload}, {@code source-mysql} ← {@code pipeline-flink} ← the two
 * pipelines, which never meet; {@code record}, {@code workload}, {@code checks-core} ← {@code
 * runner} ← {@code report}, {@code junit}, the command line ({@code harness}). Pipelines never
 * reach the runner, the record, the report, the command line or a logging binding. Runs here
 * because {@code examples} sees every module.
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

  /** What only the lab's runner and command line may use: a pipeline or a source never does. */
  private static final String[] ABOVE_THE_PIPELINES = {
    "io.reliabilitylab.runner..",
    "io.reliabilitylab.record..",
    "io.reliabilitylab.report..",
    "io.reliabilitylab.junit..",
    "io.reliabilitylab.harness..",
    "io.reliabilitylab.examples..",
    "picocli..",
    "ch.qos.logback.."
  };

  private static final ArchRule PIPELINES_NEVER_REACH_THE_RUNNER =
      noClasses()
          .that()
          .resideInAPackage("io.reliabilitylab.pipeline..")
          .should()
          .dependOnClassesThat()
          .resideInAnyPackage(ABOVE_THE_PIPELINES)
          .because(
              "a pipeline depends on the SPI, the faults and checks it embeds and a source module;"
                  + " the runner finds it by name, and the command line alone picks a logging"
                  + " binding");

  private static final ArchRule SOURCES_DEPEND_ON_THE_SPI_AND_SERVER_LIBRARIES =
      classes()
          .that()
          .resideInAPackage("io.reliabilitylab.source..")
          .should()
          .onlyDependOnClassesThat()
          .resideInAnyPackage(
              "java..",
              "javax.sql..",
              "org.jspecify..",
              "org.apiguardian..",
              "org.slf4j",
              "io.reliabilitylab.source..",
              "io.reliabilitylab.spi..",
              // the changes to write, pure values with no I/O
              "io.reliabilitylab.workload",
              // the lab's process registry, which stops every server a source starts
              "io.reliabilitylab.process",
              // the servers and drivers a source runs and talks to
              "ch.vorburger..",
              "com.mysql..",
              "org.postgresql..",
              "org.testcontainers..",
              "com.fasterxml.jackson.databind..")
          .because(
              "a source module (MySQL/MariaDB, PostgreSQL) is a sibling of the pipelines:"
                  + " the SPI, its servers and JDBC, never the runner, the checks or a logging"
                  + " binding");

  @Test
  void theSpiDependsOnTheJdkAndAnnotationsOnly() {
    SPI_DEPENDS_ON_THE_JDK_ONLY.check(lab);
  }

  @Test
  void pipelinesNeverReachTheRunnerTheRecordOrTheCommandLine() {
    PIPELINES_NEVER_REACH_THE_RUNNER.check(lab);
  }

  @Test
  void sourcesDependOnTheSpiAndTheirServerLibrariesOnly() {
    SOURCES_DEPEND_ON_THE_SPI_AND_SERVER_LIBRARIES.check(lab);
  }

  @Test
  void theRecordTheWorkloadAndTheRunnerStayBelowTheCommandLine() {
    noClasses()
        .that()
        .resideInAnyPackage(
            "io.reliabilitylab.workload..",
            "io.reliabilitylab.record..",
            "io.reliabilitylab.report..",
            "io.reliabilitylab.runner..",
            "io.reliabilitylab.junit..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(
            "io.reliabilitylab.harness..",
            "io.reliabilitylab.pipeline..",
            "io.reliabilitylab.examples..",
            "picocli..",
            "ch.qos.logback..")
        .because(
            "the runner is a library: the CLI and a JUnit test drive it alike, and the JUnit"
                + " extension finds pipelines by name on the test's class path")
        .check(lab);
    noClasses()
        .that()
        .resideInAnyPackage("io.reliabilitylab.workload..", "io.reliabilitylab.record..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(
            "io.reliabilitylab.runner..",
            "io.reliabilitylab.report..",
            "io.reliabilitylab.source..",
            "java.sql..")
        .because("the workload and the record are values: no runner, no database")
        .check(lab);
  }

  @Test
  void thePluginKitDependsOnTheSpiAlone() {
    classes()
        .that()
        .resideInAPackage("io.reliabilitylab.kit..")
        .should()
        .onlyDependOnClassesThat()
        .resideInAnyPackage(
            "java..",
            "org.jspecify..",
            "org.apiguardian..",
            "io.reliabilitylab.spi..",
            "io.reliabilitylab.kit..")
        .because("a plugin author builds a fault on the kit with nothing but the SPI beside it")
        .check(lab);
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
  void checksFaultsAndTheTestkitDependOnNeitherTheRunnerNorThePipelines() {
    noClasses()
        .that(areIn("checks-core", "faults-core", "testkit"))
        .should()
        .dependOnClassesThat(
            areIn(
                    "harness",
                    "runner",
                    "record",
                    "report",
                    "source-mysql",
                    "pipeline-flink",
                    "pipeline-direct",
                    "pipeline-broker",
                    "examples")
                .or(
                    resideInAnyPackage(
                        "io.reliabilitylab.harness..",
                        "io.reliabilitylab.runner..",
                        "io.reliabilitylab.record..",
                        "io.reliabilitylab.source..",
                        "io.reliabilitylab.pipeline..",
                        "io.reliabilitylab.examples..")))
        .because("dependencies point one way: spi <- {testkit, faults-core, checks-core} <- runner")
        .check(lab);
  }

  @Test
  void theRunnerAndTheCommandLineDoNotDependOnThePipelines() {
    noClasses()
        .that(areIn("harness", "runner", "record", "report", "workload"))
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
    assertThat(areIn("runner").test(lab.get(ScenarioRunner.class))).isTrue();
    assertThat(areIn("harness").test(lab.get(ScenarioRunner.class))).isFalse();
    // the JUnit extension is imported, so the rules that name its package judge its classes
    assertThat(areIn("junit").test(lab.get(ReliabilityLabExtension.class))).isTrue();
  }

  @Test
  void theRulesRejectDeliberateViolations() {
    // Negative controls from this module's test sources, which the rules above never see.
    JavaClasses violations =
        new ClassFileImporter()
            .importPackages(
                "io.reliabilitylab.spi.archfixture",
                "io.reliabilitylab.pipeline.direct.archfixture",
                "io.reliabilitylab.pipeline.broker.archfixture",
                "io.reliabilitylab.pipeline.flink.archfixture",
                "io.reliabilitylab.source.mysql.archfixture");
    assertThatThrownBy(() -> SPI_DEPENDS_ON_THE_JDK_ONLY.check(violations))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("SpiTypeUsingALibrary")
        .hasMessageContaining("org.assertj");
    assertThatThrownBy(() -> DIRECT_NEVER_USES_BROKER.check(violations))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("DirectUsingBroker")
        .hasMessageContaining("BrokerPart");
    assertThatThrownBy(() -> PIPELINES_NEVER_REACH_THE_RUNNER.check(violations))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("PipelineUsingTheRunner")
        .hasMessageContaining("io.reliabilitylab.runner.ScenarioRunner")
        .hasMessageContaining("io.reliabilitylab.record.RunRecord");
    assertThatThrownBy(() -> SOURCES_DEPEND_ON_THE_SPI_AND_SERVER_LIBRARIES.check(violations))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("SourceUsingTheChecks")
        .hasMessageContaining("io.reliabilitylab.checks.SnapshotDiffCheck")
        .hasMessageContaining("ch.qos.logback");
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
