package io.reliabilitylab.examples.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import io.reliabilitylab.harness.cli.ReliabilityLab;
import io.reliabilitylab.record.ExitCode;
import java.io.File;
import java.net.URL;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class LauncherTest {

  @ParameterizedTest
  @CsvSource({"1.8, 8", "9, 9", "11, 11", "17, 17", "21, 21", "25, 25", "17.0.1, 17", "x, -1"})
  void readsTheFeatureVersion(String specificationVersion, int feature) {
    assertThat(Launcher.featureVersion(specificationVersion)).isEqualTo(feature);
  }

  @ParameterizedTest
  @ValueSource(strings = {"17", "18", "21"})
  void acceptsJava17To21(String specificationVersion) {
    assertThat(Launcher.refusal(specificationVersion, "v", "/jdk")).isNull();
  }

  @ParameterizedTest
  @ValueSource(strings = {"1.8", "11", "16", "22", "23", "25", "garbage"})
  void refusesEverythingElseInOneLineNamingTheJvm(String specificationVersion) {
    assertThat(Launcher.refusal(specificationVersion, "25.0.1", "/opt/jdk-25"))
        .isEqualTo(
            "reliability-lab needs Java 17 to 21 but was started with Java 25.0.1 (/opt/jdk-25);"
                + " run it with a JDK 17 or 21, for example <jdk-17>/bin/java -jar"
                + " reliability-lab.jar.");
  }

  @Test
  void refusesWithTheHarnessUsageExitCode() {
    assertThat(Launcher.USAGE_OR_ENVIRONMENT).isEqualTo(ExitCode.USAGE_OR_ENVIRONMENT.code());
  }

  @Test
  void tellsTheCommandLineWhereTheJarIs() throws Exception {
    assertThat(Launcher.HOME_PROPERTY).isEqualTo(ReliabilityLab.HOME_PROPERTY);
    assertThat(Launcher.home(new URL("file:/opt/lab/reliability-lab.jar")))
        .isEqualTo(new File("/opt/lab").getPath());
    assertThat(Launcher.home(new URL("file:/opt/lab%20two/reliability-lab.jar")))
        .isEqualTo(new File("/opt/lab two").getPath());
    assertThat(Launcher.home(new URL("file:/work/examples/target/classes/"))).isNull();
    assertThat(Launcher.home(new URL("jar:file:/opt/lab/x.jar!/"))).isNull();
    assertThat(Launcher.home(null)).isNull();
  }

  @Test
  void namesTheHarnessCommandLine() throws Exception {
    assertThat(Class.forName(Launcher.COMMAND_LINE).getMethod("main", String[].class)).isNotNull();
  }
}
