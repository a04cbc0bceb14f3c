package io.reliabilitylab.harness.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.reliabilitylab.spi.pipeline.LabOptions;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code --sink-catalog} as the pipeline options it stands for. */
class PipelineOptionsTest {

  @Test
  void aCatalogKindAloneOrARestCatalogWithItsUri() {
    assertThat(PipelineOptions.sinkCatalogOptions("embedded-rest"))
        .isEqualTo(Map.of(LabOptions.SINK_CATALOG, "embedded-rest"));
    assertThat(PipelineOptions.sinkCatalogOptions(" rest=https://catalog.internal/api?x=1 "))
        .isEqualTo(
            Map.of(
                LabOptions.SINK_CATALOG,
                "rest",
                LabOptions.SINK_CATALOG_URI,
                "https://catalog.internal/api?x=1"));
  }
}
