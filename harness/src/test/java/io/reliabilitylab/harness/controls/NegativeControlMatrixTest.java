package io.reliabilitylab.harness.controls;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** The negative-control matrix in the docs is the one the properties test, row for row. */
class NegativeControlMatrixTest {

  private static final Path DOC = Path.of("..", "site", "src", "docs", "negative-controls.md");

  @Test
  void docsShowEveryRowOfTheTestedMatrix() throws IOException {
    String doc = Files.readString(DOC, StandardCharsets.UTF_8);
    for (Mutation mutation : Mutation.values()) {
      assertThat(doc).as("row for %s in %s", mutation, DOC).contains(row(mutation));
    }
    // the mutation table: from its header to the first line that is not a row (the page's other
    // table, of the fault-sensitive controls, is NegativeControlIT's)
    long tableRows =
        doc.lines()
            .dropWhile(line -> !line.startsWith("| mutation"))
            .skip(2)
            .takeWhile(line -> line.startsWith("| "))
            .count();
    assertThat(tableRows)
        .as("no rows in the docs beyond the tested ones")
        .isEqualTo(Mutation.values().length);
  }

  /** The markdown row of one mutation, as the docs must show it. */
  static String row(Mutation mutation) {
    return "| "
        + mutation.mutation
        + " | "
        + mutation.table
        + " | "
        + join(mutation.mustFailExactlyOnce)
        + " | "
        + join(mutation.mustFailAtLeastOnce)
        + " | "
        + join(mutation.mayFail)
        + " |";
  }

  private static String join(Set<String> checks) {
    return checks.isEmpty() ? "none" : String.join(", ", new TreeSet<>(checks));
  }
}
