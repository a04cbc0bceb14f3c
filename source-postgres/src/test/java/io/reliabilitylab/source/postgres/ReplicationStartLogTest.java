package io.reliabilitylab.source.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import io.reliabilitylab.source.jdbc.ReplicationStart;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Reads a PostgreSQL 15.18 log of a lab suite: three scenarios' slots, each started and restored,
 * the last one restored from a checkpoint its slot had been confirmed past (the server forwarded
 * the start).
 */
class ReplicationStartLogTest {

  private static Path log() throws URISyntaxException {
    return Path.of(ReplicationStartLogTest.class.getResource("postgres-15-restores.log").toURI());
  }

  @Test
  void aStartTheServerForwardedPastTheRequestedPositionIsSkipped() throws Exception {
    List<ReplicationStart> starts = ReplicationStartLog.read(log(), "srl_direct_5723686e816a");

    // the job's first stream (twice: Debezium restarts at the first unprocessed transaction),
    // then the restore's, which asked for 0/1A55838 and got 0/1A594D8
    assertThat(starts)
        .extracting(
            ReplicationStart::requested, ReplicationStart::startedAfter, ReplicationStart::skipped)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("0/1A2CB78", "0/1A2CB10", false),
            org.assertj.core.groups.Tuple.tuple("0/1A2CB78", "0/1A2CB10", false),
            org.assertj.core.groups.Tuple.tuple("0/1A55838", "0/1A594D8", true),
            org.assertj.core.groups.Tuple.tuple("0/1A55838", "0/1A594D8", true));
    assertThat(starts.get(2).at()).isEqualTo("2026-12-06 21:08:53.069 UTC");
  }

  @Test
  void restoresTheSlotServedFromWhereTheyAskedAreNotSkipped() throws Exception {
    List<ReplicationStart> starts = ReplicationStartLog.read(log(), "srl_direct_bf5176a79840");

    assertThat(starts).hasSize(4).noneMatch(ReplicationStart::skipped);
    assertThat(starts)
        .extracting(ReplicationStart::requested)
        .containsExactly("0/19D5078", "0/19D5078", "0/1A02718", "0/1A02718");
  }

  @Test
  void otherSlotsAndTheSnapshotSlotsAreNotReported() throws Exception {
    assertThat(ReplicationStartLog.read(log(), "srl_direct_5723686e816a_0")).isEmpty();
    assertThat(ReplicationStartLog.read(log(), "no_such_slot")).isEmpty();
  }

  @Test
  void aForwardedStartWithoutItsStatementLineIsStillSkipped() {
    List<String> lines =
        List.of(
            "2026-12-06 21:08:53.069 UTC [7] LOG:  0/10 has been already streamed, forwarding to"
                + " 0/20",
            "2026-12-06 21:08:53.069 UTC [8] LOG:  starting logical decoding for slot \"other\"",
            "2026-12-06 21:08:53.069 UTC [7] LOG:  starting logical decoding for slot \"s\"",
            "2026-12-06 21:08:53.070 UTC [8] DETAIL:  Streaming transactions committing after 0/5,"
                + " reading WAL from 0/1.",
            "2026-12-06 21:08:53.070 UTC [7] DETAIL:  Streaming transactions committing after 0/20,"
                + " reading WAL from 0/1.",
            "not a log line");

    assertThat(ReplicationStartLog.parse(lines, "s"))
        .containsExactly(
            new ReplicationStart("s", "2026-12-06 21:08:53.069 UTC", "0/10", "0/20", true));
  }
}
