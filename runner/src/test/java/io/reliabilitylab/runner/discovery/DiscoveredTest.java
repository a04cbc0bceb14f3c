package io.reliabilitylab.runner.discovery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.reliabilitylab.runner.discovery.DiscoveryProblem.Reason;
import io.reliabilitylab.runner.discovery.testplugins.ScenarioClassLoader;
import io.reliabilitylab.runner.discovery.testplugins.TestChecks;
import io.reliabilitylab.spi.Named;
import io.reliabilitylab.spi.check.ReconciliationCheck;
import java.util.List;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

class DiscoveredTest {

  @Nested
  class WhenEveryPluginIsSound {

    private final Discovered<ReconciliationCheck> checks =
        Discovered.checks(ScenarioClassLoader.of("valid"));

    @Test
    void ordersByNameWhateverTheRegistrationOrder() {
      assertThat(checks.names()).containsExactly("alpha", "beta");
      assertThat(checks.all()).extracting(Named::name).containsExactly("alpha", "beta");
      assertThat(checks.problems()).isEmpty();
      assertThat(checks.kind()).isEqualTo("check");
      assertThat(checks.type()).isEqualTo(ReconciliationCheck.class);
    }

    @Test
    void findsFaultsAndPipelinesToo() {
      ScenarioClassLoader loader = ScenarioClassLoader.of("valid");
      assertThat(Discovered.faults(loader).names()).containsExactly("test-fault");
      assertThat(Discovered.pipelines(loader).names()).containsExactly("test-pipeline");
      assertThat(Discovered.faults(loader).kind()).isEqualTo("fault");
      assertThat(Discovered.pipelines(loader).kind()).isEqualTo("pipeline");
    }

    @Test
    void getsOneByName() {
      assertThat(checks.get("beta")).isInstanceOf(TestChecks.Beta.class);
      assertThat(checks.get(" alpha ")).isInstanceOf(TestChecks.Alpha.class);
    }

    @Test
    void selectsACommaSeparatedListInTheOrderGiven() {
      assertThat(checks.select("beta,alpha"))
          .extracting(Named::name)
          .containsExactly("beta", "alpha");
      assertThat(checks.select(" beta , alpha,beta,"))
          .extracting(Named::name)
          .containsExactly("beta", "alpha");
      assertThat(checks.select(List.of("alpha"))).extracting(Named::name).containsExactly("alpha");
    }

    @Test
    void getWantsExactlyOneName() {
      assertThatThrownBy(() -> checks.get("all"))
          .isInstanceOf(DiscoveryException.class)
          .hasMessageStartingWith("'all' means every check; name exactly one here.");
    }

    @Test
    void allSelectsEveryPluginInNameOrder() {
      assertThat(checks.select("all")).extracting(Named::name).containsExactly("alpha", "beta");
    }

    @Test
    void anUnknownNameFailsFastListingTheAvailableOnes() {
      assertThatThrownBy(() -> checks.select("alpha,gamma"))
          .isInstanceOf(DiscoveryException.class)
          .hasMessage("Unknown check 'gamma'. Available checks: alpha, beta (or 'all').");
      assertThatThrownBy(() -> checks.get("gamma"))
          .isInstanceOf(DiscoveryException.class)
          .hasMessageContaining("Unknown check 'gamma'")
          .hasMessageContaining("alpha, beta");
    }

    @Test
    void everyUnknownNameIsNamedAtOnce() {
      assertThatThrownBy(() -> checks.select("gamma,alpha,delta"))
          .hasMessageStartingWith("Unknown check 'gamma', 'delta'.");
    }

    @Test
    void anEmptySelectionIsRefused() {
      assertThatThrownBy(() -> checks.select(" , "))
          .isInstanceOf(DiscoveryException.class)
          .hasMessageContaining("No check selected")
          .hasMessageContaining("alpha, beta");
    }

    @Test
    void allCannotBeMixedWithNames() {
      assertThatThrownBy(() -> checks.select("all,alpha"))
          .isInstanceOf(DiscoveryException.class)
          .hasMessageContaining("'all' already selects every check");
    }

    @Test
    void requireNoProblemsPassesWhenThereAreNone() {
      assertThat(checks.requireNoProblems()).isSameAs(checks);
    }
  }

  @Nested
  class WhenNothingIsRegistered {

    private final Discovered<ReconciliationCheck> checks =
        Discovered.checks(ScenarioClassLoader.empty());

    @Test
    void findsNothingAndSaysHowToAddAPlugin() {
      assertThat(checks.all()).isEmpty();
      assertThat(checks.problems()).isEmpty();
      assertThatThrownBy(() -> checks.select("all"))
          .isInstanceOf(DiscoveryException.class)
          .hasMessageContaining("'all' selects no check. No check is available")
          .hasMessageContaining("META-INF/services");
      assertThatThrownBy(() -> checks.get("alpha"))
          .hasMessageContaining("Unknown check 'alpha'. No check is available");
    }
  }

  @Nested
  class WhenTwoPluginsShareAName {

    private final Discovered<ReconciliationCheck> checks =
        Discovered.checks(ScenarioClassLoader.of("duplicate"));

    @Test
    void reportsTheDuplicateNamingBothClasses() {
      assertThat(checks.names()).containsExactly("alpha");
      assertThat(checks.problems())
          .singleElement()
          .satisfies(
              problem -> {
                assertThat(problem.reason()).isEqualTo(Reason.DUPLICATE_NAME);
                assertThat(problem.kind()).isEqualTo("check");
                assertThat(problem.message())
                    .contains("2 check implementations are named 'twin'")
                    .contains(TestChecks.TwinA.class.getName())
                    .contains(TestChecks.TwinB.class.getName())
                    .contains("Remove one of them");
              });
    }

    @Test
    void selectingFailsFastEvenForAnUnaffectedName() {
      assertThatThrownBy(() -> checks.select("twin"))
          .isInstanceOf(DiscoveryException.class)
          .hasMessageContaining(TestChecks.TwinA.class.getName())
          .hasMessageContaining(TestChecks.TwinB.class.getName());
      assertThatThrownBy(() -> checks.select("alpha")).isInstanceOf(DiscoveryException.class);
      assertThatThrownBy(checks::requireNoProblems).isInstanceOf(DiscoveryException.class);
    }
  }

  @Nested
  class WhenAProviderIsBroken {

    private final Discovered<ReconciliationCheck> checks =
        Discovered.checks(ScenarioClassLoader.of("broken"));

    @Test
    void keepsTheSoundOnesAndReportsEachBrokenOneByClass() {
      assertThat(checks.names()).containsExactly("alpha");
      assertThat(checks.problems())
          .extracting(DiscoveryProblem::reason)
          .containsOnly(Reason.BROKEN_PROVIDER)
          .hasSize(4);
      assertThat(checks.problems())
          .extracting(DiscoveryProblem::message)
          .anySatisfy(
              message ->
                  assertThat(message)
                      .contains(TestChecks.Exploding.class.getName())
                      .contains("could not be instantiated")
                      .contains("missing setting lab.secret-sauce")
                      .contains("META-INF/services/" + ReconciliationCheck.class.getName()))
          .anySatisfy(message -> assertThat(message).contains("com.example.MissingCheck not found"))
          .anySatisfy(
              message ->
                  assertThat(message)
                      .contains(TestChecks.NotACheck.class.getName())
                      .contains("not a subtype"))
          .anySatisfy(
              message ->
                  assertThat(message)
                      .contains(TestChecks.NamelessAtRuntime.class.getName())
                      .contains("failed to say its name")
                      .contains("name lookup failed"));
    }

    @Test
    void problemsAreSingleLinesWithoutStackTraces() {
      assertThat(checks.problems())
          .extracting(DiscoveryProblem::message)
          .allSatisfy(message -> assertThat(message).doesNotContain("\n").doesNotContain("\tat "));
    }

    @Test
    void selectionFailsFastListingEveryProblem() {
      assertThatThrownBy(() -> checks.select("alpha"))
          .isInstanceOf(DiscoveryException.class)
          .hasMessageStartingWith("4 problems with the check implementations on the class path:")
          .hasMessageContaining("could not be instantiated")
          .hasMessageContaining("com.example.MissingCheck");
    }
  }

  @Nested
  class WhenANameIsInvalid {

    private final Discovered<ReconciliationCheck> checks =
        Discovered.checks(ScenarioClassLoader.of("invalid-names"));

    @Test
    void reportsBadNamesTheReservedWordAndMissingDescriptions() {
      assertThat(checks.names()).containsExactly("beta");
      assertThat(checks.problems())
          .extracting(DiscoveryProblem::reason)
          .containsOnly(Reason.INVALID_NAME)
          .hasSize(3);
      assertThat(checks.problems())
          .extracting(DiscoveryProblem::message)
          .anySatisfy(
              message ->
                  assertThat(message)
                      .contains("invalid name 'Bad_Name'")
                      .contains(TestChecks.BadlyNamed.class.getName())
                      .contains("kebab-case"))
          .anySatisfy(message -> assertThat(message).contains("named 'all', which is reserved"))
          .anySatisfy(
              message -> assertThat(message).contains("'undescribed'").contains("no description"));
    }
  }

  @Test
  void anUnreadableServicesFileIsReportedOnceNotForever() {
    ClassLoader unreadable =
        new ClassLoader(DiscoveredTest.class.getClassLoader()) {
          @Override
          public java.util.Enumeration<java.net.URL> getResources(String name)
              throws java.io.IOException {
            throw new java.io.IOException("permission denied: " + name);
          }
        };
    Discovered<ReconciliationCheck> checks = Discovered.checks(unreadable);
    assertThat(checks.all()).isEmpty();
    assertThat(checks.problems())
        .singleElement()
        .extracting(DiscoveryProblem::message)
        .asString()
        .contains("Broken check provider")
        .contains("permission denied");
  }

  @Test
  void kindsFallBackToTheTypeName() {
    assertThat(Discovered.kindOf(Named.class)).isEqualTo("Named");
  }
}
