package io.reliabilitylab.source.postgres;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.reliabilitylab.source.jdbc.ReplicationStart;
import java.io.IOException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apiguardian.api.API;

/**
 * Reads where PostgreSQL started each logical replication stream from the server's log (the lines a
 * walsender logs at {@code LOG} level with the default settings, PostgreSQL 10 to 17):
 *
 * <pre>
 * 2026-12-06 21:08:53.069 UTC [24813] LOG:  0/1A55838 has been already streamed, forwarding to 0/1A594D8
 * 2026-12-06 21:08:53.069 UTC [24813] LOG:  starting logical decoding for slot "srl_direct_5723686e816a"
 * 2026-12-06 21:08:53.069 UTC [24813] DETAIL:  Streaming transactions committing after 0/1A594D8, reading WAL from 0/1A2CB40.
 * 2026-12-06 21:08:53.069 UTC [24813] STATEMENT:  START_REPLICATION SLOT "srl_direct_5723686e816a" LOGICAL 0/1A55838 (...)
 * </pre>
 *
 * The first line appears only when the client asked for a position the slot was already confirmed
 * past: the server then streams from the confirmed one, and whatever was committed in between never
 * reaches the client. Lines of one walsender share its process id; walsenders interleave.
 */
@API(status = EXPERIMENTAL)
public final class ReplicationStartLog {

  private static final Pattern LINE =
      Pattern.compile("^(\\S+ \\S+(?: \\S+)?) \\[(\\d+)\\] ([A-Z]+):\\s+(.*)$");
  private static final Pattern FORWARDED =
      Pattern.compile("^(\\S+/\\S+) has been already streamed, forwarding to (\\S+/\\S+)$");
  private static final Pattern STARTING =
      Pattern.compile("^starting logical decoding for slot \"([^\"]+)\"$");
  private static final Pattern COMMITTING_AFTER =
      Pattern.compile("^Streaming transactions committing after (\\S+/[0-9A-Fa-f]+),");
  private static final Pattern START_REPLICATION =
      Pattern.compile("^START_REPLICATION SLOT \"([^\"]+)\" LOGICAL (\\S+/[0-9A-Fa-f]+)");

  private ReplicationStartLog() {}

  /** The starts of {@code slot} in the server log {@code log}, oldest first. */
  public static List<ReplicationStart> read(Path log, String slot) throws IOException {
    // a log may hold bytes of any encoding (a client's statement): never fail on them
    String text =
        StandardCharsets.UTF_8
            .newDecoder()
            .onMalformedInput(CodingErrorAction.REPLACE)
            .onUnmappableCharacter(CodingErrorAction.REPLACE)
            .decode(java.nio.ByteBuffer.wrap(Files.readAllBytes(log)))
            .toString();
    return parse(text.lines().toList(), slot);
  }

  /** The starts of {@code slot} in the log's {@code lines}, oldest first. */
  public static List<ReplicationStart> parse(List<String> lines, String slot) {
    Objects.requireNonNull(slot, "slot");
    Map<String, String[]> forwarded = new HashMap<>();
    Map<String, Start> open = new HashMap<>();
    List<Start> starts = new ArrayList<>();
    for (String line : lines) {
      Matcher entry = LINE.matcher(line);
      if (!entry.matches()) {
        continue;
      }
      String at = entry.group(1);
      String pid = entry.group(2);
      String level = entry.group(3);
      String message = entry.group(4).strip();
      Matcher m;
      if (level.equals("LOG") && (m = FORWARDED.matcher(message)).matches()) {
        forwarded.put(pid, new String[] {m.group(1), m.group(2)});
      } else if (level.equals("LOG") && (m = STARTING.matcher(message)).matches()) {
        Start start = new Start(m.group(1), at, forwarded.remove(pid));
        open.put(pid, start);
        starts.add(start);
      } else if (level.equals("DETAIL")
          && open.containsKey(pid)
          && (m = COMMITTING_AFTER.matcher(message)).find()) {
        open.get(pid).startedAfter = m.group(1);
      } else if (level.equals("STATEMENT")
          && open.containsKey(pid)
          && (m = START_REPLICATION.matcher(message)).find()) {
        Start start = open.remove(pid);
        if (start.requested.isEmpty() && start.slot.equals(m.group(1))) {
          start.requested = m.group(2);
        }
      }
    }
    return starts.stream()
        .filter(start -> start.slot.equals(slot) && !start.startedAfter.isEmpty())
        .map(Start::toRecord)
        .toList();
  }

  /** A start being read: its lines arrive one by one. */
  private static final class Start {
    private final String slot;
    private final String at;
    private String requested;
    private String startedAfter = "";

    Start(String slot, String at, String[] forwarded) {
      this.slot = slot;
      this.at = at;
      this.requested = forwarded == null ? "" : forwarded[0];
    }

    ReplicationStart toRecord() {
      boolean skipped = !requested.isEmpty() && Lsn.parse(startedAfter) > Lsn.parse(requested);
      return new ReplicationStart(slot, at, requested, startedAfter, skipped);
    }
  }
}
