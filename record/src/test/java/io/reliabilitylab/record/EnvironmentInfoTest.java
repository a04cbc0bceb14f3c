package io.reliabilitylab.record;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class EnvironmentInfoTest {

  @Test
  void captureDescribesThisJvm() {
    EnvironmentInfo info = EnvironmentInfo.capture("unit test", false);

    assertThat(info.cpuCount()).isEqualTo(Runtime.getRuntime().availableProcessors());
    assertThat(info.javaVersion()).isEqualTo(System.getProperty("java.version"));
    assertThat(info.maxHeapBytes()).isEqualTo(Runtime.getRuntime().maxMemory());
    assertThat(info.os()).isEqualTo(System.getProperty("os.name"));
    assertThat(info.loadAverage()).hasSizeLessThanOrEqualTo(3);
    assertThat(info.execution()).isEqualTo("unit test");
    assertThat(info.dockerAvailable()).isFalse();
    assertThat(info.dockerVersion()).isNull();
    assertThat(EnvironmentInfo.capture("x", true, "29.7.2").dockerVersion()).isEqualTo("29.7.2");
  }

  @Test
  void theCpuModelIsReadFromCpuinfo() {
    String x86 =
        "processor\t: 0\nvendor_id\t: AuthenticAMD\nmodel\t\t: 1\n"
            + "model name\t: AMD EPYC 7B13\nflags\t\t: fpu\n";
    String arm = "processor\t: 0\nBogoMIPS\t: 50.00\n\nModel\t\t: Raspberry Pi 4 Model B\n";

    assertThat(EnvironmentInfo.parseCpuModel(x86)).isEqualTo("AMD EPYC 7B13");
    assertThat(EnvironmentInfo.parseCpuModel(arm)).isEqualTo("Raspberry Pi 4 Model B");
    assertThat(EnvironmentInfo.parseCpuModel("processor\t: 0\n")).isNull();
  }

  @Test
  void theDistributionIsReadFromOsRelease() {
    assertThat(
            EnvironmentInfo.parseOsReleaseName(
                "NAME=\"Ubuntu\"\nVERSION=\"24.04.4 LTS (Noble Numbat)\"\n"
                    + "PRETTY_NAME=\"Ubuntu 24.04.4 LTS\"\n"))
        .isEqualTo("Ubuntu 24.04.4 LTS");
    assertThat(EnvironmentInfo.parseOsReleaseName("NAME=Alpine\nVERSION=3.20\n"))
        .isEqualTo("Alpine 3.20");
    assertThat(EnvironmentInfo.parseOsReleaseName("ID=x\n")).isNull();
  }

  @Test
  void theLoadAverageIsReadFromProcLoadavg() {
    assertThat(EnvironmentInfo.parseLoadAverage("2.51 2.39 2.00 3/1024 4711\n"))
        .isEqualTo(List.of(2.51, 2.39, 2.00));
    assertThat(EnvironmentInfo.parseLoadAverage("garbage")).isEmpty();
  }
}
