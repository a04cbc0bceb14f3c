package io.reliabilitylab.harness.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.reliabilitylab.record.ExitCode;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The reconcile command's arguments, checked before it connects to anything. */
class ReconcileCommandTest {

  private static final int USAGE = ExitCode.USAGE_OR_ENVIRONMENT.code();

  @TempDir Path temp;

  record Run(int exitCode, String out, String err) {}

  private static Run run(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int exitCode =
        new ReliabilityLab(
                new PrintWriter(out),
                new PrintWriter(err),
                ReconcileCommandTest.class.getClassLoader())
            .execute(args);
    return new Run(exitCode, out.toString(), err.toString());
  }

  private List<String> valid(String... overrides) {
    List<String> args = new ArrayList<>();
    args.add("reconcile");
    args.add("--source-jdbc-url=jdbc:mysql://127.0.0.1:1/lab");
    args.add("--source-user=lab");
    args.add("--source-table=orders");
    args.add("--warehouse=" + temp);
    args.add("--iceberg-table=lab.orders_current");
    for (String override : overrides) {
      String option = override.substring(0, override.indexOf('=') + 1);
      args.removeIf(arg -> arg.startsWith(option));
      args.add(override);
    }
    return args;
  }

  @Test
  void helpNamesEveryOptionAndTheExitCodes() {
    Run run = run("reconcile", "--help");

    assertThat(run.exitCode()).isZero();
    assertThat(run.out())
        .contains("Usage: reliability-lab reconcile")
        .contains("--source-jdbc-url")
        .contains("--source-password")
        .contains("--warehouse")
        .contains("--catalog-uri")
        .contains("--catalog-property")
        .contains("--iceberg-table")
        .contains("--snapshot-id")
        .contains("--semantics")
        .contains("--out")
        .contains("Exit code: 0 passed, 1 a check failed, 2 usage or environment error");
  }

  @Test
  void theCatalogIsGivenExactlyOnce() {
    List<String> neither = valid();
    neither.removeIf(arg -> arg.startsWith("--warehouse="));
    Run none = run(neither.toArray(String[]::new));
    assertThat(none.exitCode()).isEqualTo(USAGE);
    assertThat(none.err())
        .contains("Give the Iceberg catalog once: --warehouse DIR")
        .contains("not neither");

    Run both = run(valid("--catalog-uri=http://127.0.0.1:1").toArray(String[]::new));
    assertThat(both.exitCode()).isEqualTo(USAGE);
    assertThat(both.err()).contains("not both");

    Run hadoopWithProperty =
        run(valid("--catalog-property=s3.endpoint=http://x").toArray(String[]::new));
    assertThat(hadoopWithProperty.exitCode()).isEqualTo(USAGE);
    assertThat(hadoopWithProperty.err()).contains("--catalog-property is for a REST catalog");
  }

  @Test
  void theTopLevelHelpListsTheCommand() {
    assertThat(run("--help").out()).containsPattern("(?m)^\\s+reconcile\\s+Checks an existing");
  }

  @Test
  void aMissingRequiredOptionIsAUsageError() {
    Run run = run("reconcile", "--source-user=lab");

    assertThat(run.exitCode()).isEqualTo(USAGE);
    assertThat(run.err()).startsWith("reliability-lab reconcile: Missing required option");
  }

  @Test
  void anIcebergTableWithoutNamespaceIsAUsageError() {
    List<String> args = valid("--iceberg-table=orders_current");

    Run run = run(args.toArray(String[]::new));

    assertThat(run.exitCode()).isEqualTo(USAGE);
    assertThat(run.err().lines().toList())
        .singleElement()
        .asString()
        .contains("--iceberg-table must be namespace.table")
        .contains("'orders_current'");
  }

  @Test
  void unknownSemanticsAreAUsageError() {
    Run run = run(valid("--semantics=twice").toArray(String[]::new));

    assertThat(run.exitCode()).isEqualTo(USAGE);
    assertThat(run.err()).contains("--semantics must be exactly-once or at-least-once");
  }

  @Test
  void aUrlWithAPasswordIsRefusedWithoutEchoingIt() {
    List<String> args = valid();
    args.set(1, "--source-jdbc-url=jdbc:mysql://127.0.0.1:1/lab?password=hunter2");

    Run run = run(args.toArray(String[]::new));

    assertThat(run.exitCode()).isEqualTo(USAGE);
    assertThat(run.err()).contains("holds credentials").doesNotContain("hunter2");
  }

  @Test
  void anUnreachablePostgresServerIsOneLineNamingIt() {
    List<String> args = valid("--source-jdbc-url=jdbc:postgresql://127.0.0.1:1/lab");

    Run run = run(args.toArray(String[]::new));

    assertThat(run.exitCode()).isEqualTo(ExitCode.USAGE_OR_ENVIRONMENT.code());
    assertThat(run.err().lines().filter(line -> !line.isBlank()).toList())
        .singleElement()
        .asString()
        .contains("cannot read the columns of source table")
        .contains("jdbc:postgresql://127.0.0.1:1/lab");
  }

  @Test
  void aMissingWarehouseIsAnEnvironmentErrorBeforeConnecting() {
    List<String> args = valid("--warehouse=" + temp.resolve("nowhere"));

    Run run = run(args.toArray(String[]::new));

    assertThat(run.exitCode()).isEqualTo(USAGE);
    assertThat(run.out()).isEmpty();
    assertThat(run.err().lines().toList())
        .singleElement()
        .asString()
        .startsWith("reliability-lab reconcile: the Iceberg warehouse")
        .contains("nowhere")
        .contains("is not a directory");
  }
}
