package io.reliabilitylab.site;

import static org.assertj.core.api.Assertions.assertThat;

import io.reliabilitylab.runner.discovery.Discovered;
import io.reliabilitylab.spi.check.ReconciliationCheck;
import io.reliabilitylab.spi.fault.FaultInjector;
import io.reliabilitylab.spi.fault.FaultVariant;
import io.reliabilitylab.spi.pipeline.PipelineProvider;
import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The generated catalogue lists every discovered fault, variant, check and pipeline. */
class CatalogueTest {

  private static final ClassLoader LOADER = CatalogueTest.class.getClassLoader();

  @TempDir static Path output;
  private static String html;

  @BeforeAll
  static void render() throws IOException {
    SiteGeneratorTest.realSite(output).build().generate();
    html = java.nio.file.Files.readString(output.resolve("catalogue.html"));
  }

  @Test
  void theBuiltInsAreDiscovered() {
    assertThat(Discovered.faults(LOADER).names())
        .contains(
            "task-exception",
            "task-failure",
            "coordinator-failure",
            "checkpoint-failure",
            "savepoint-restore",
            "sink-commit-failure",
            "poison-message",
            "broker-restart",
            "duplicate-redelivery",
            "walsender-terminated");
    assertThat(Discovered.checks(LOADER).names())
        .contains(
            "snapshot-diff",
            "event-id-audit",
            "changelog-completeness",
            "no-duplicate-keys",
            "current-changelog-consistency",
            "reader-view",
            "offset-checkpoint-snapshot-linkage",
            "dlq-integrity");
    assertThat(Discovered.pipelines(LOADER).names()).contains("direct", "broker");
  }

  @Test
  void everyFaultAndEveryVariantIsListed() {
    for (FaultInjector fault : Discovered.faults(LOADER).all()) {
      assertThat(html).contains("<h3 id=\"" + Markdown.slug(fault.name()) + "\">" + fault.name());
      for (FaultVariant variant : fault.variants()) {
        assertThat(html)
            .as("variant %s of %s", variant.name(), fault.name())
            .contains("<code>" + Catalogue.scenario(fault, variant) + "</code>");
        if (variant.knownHazard() != null) {
          assertThat(html).contains(PageTemplate.escape(variant.knownHazard()));
        }
      }
      for (var capability : fault.requiredCapabilities()) {
        assertThat(html).contains("<code>" + capability.getSimpleName() + "</code>");
      }
    }
  }

  @Test
  void everyCheckAndPipelineIsListed() {
    for (ReconciliationCheck check : Discovered.checks(LOADER).all()) {
      assertThat(html).contains("<h3 id=\"" + Markdown.slug(check.name()) + "\">" + check.name());
      assertThat(html).contains(PageTemplate.escape(check.description()));
    }
    for (PipelineProvider pipeline : Discovered.pipelines(LOADER).all()) {
      assertThat(html).contains("<h3 id=\"" + pipeline.name() + "\">" + pipeline.name());
      pipeline
          .optionalOptions()
          .forEach(key -> assertThat(html).contains("<code>" + key + "</code>"));
    }
  }

  @Test
  void positionsAndDeclaredParametersAreShown() {
    assertThat(html).contains("<code>after-event:K</code>", "<code>snapshot-phase:K</code>");
    // task-failure documents its 'replacement' parameter
    assertThat(Catalogue.declaredParameters(Discovered.faults(LOADER).get("task-failure")))
        .containsKey("replacement");
    assertThat(html).contains("<code>replacement</code>");
  }

  @Test
  void freeTextCannotBecomeMarkup() {
    assertThat(Catalogue.text("a | b *c* <x>")).isEqualTo("a \\| b \\*c\\* \\<x\\>");
  }
}
