package io.reliabilitylab.catalog.rest;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.iceberg.rest.responses.ErrorResponse;
import org.apache.iceberg.rest.responses.ErrorResponseParser;
import org.junit.jupiter.api.Test;

/** The error a lost commit response is replaced with, and what the applied commit named. */
class CommitResponseLossTest {

  @Test
  void theErrorIsIcebergsOwnErrorResponseWithTheMessageEscaped() {
    ErrorResponse error =
        ErrorResponseParser.fromJson(CommitResponseLoss.errorBody("lost \"fault-1\" \\ \n here"));
    assertThat(error.code()).isEqualTo(500);
    assertThat(error.type()).isEqualTo("ServiceFailureException");
    assertThat(error.message()).isEqualTo("lost \"fault-1\" \\   here");
  }

  @Test
  void theAppliedCommitsMetadataFileIsReadFromTheLostResponse() {
    assertThat(
            CommitResponseLoss.metadataLocation(
                "{\"metadata-location\" : \"s3://b/w/t/metadata/00003-x.metadata.json\","
                    + "\"metadata\":{}}"))
        .isEqualTo("s3://b/w/t/metadata/00003-x.metadata.json");
    assertThat(CommitResponseLoss.metadataLocation("{}")).isEmpty();
  }
}
