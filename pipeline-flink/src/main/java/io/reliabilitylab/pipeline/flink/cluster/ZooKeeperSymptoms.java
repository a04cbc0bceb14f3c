package io.reliabilitylab.pipeline.flink.cluster;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;

/**
 * What a cluster's Flink processes logged about their ZooKeeper sessions and leadership: Curator's
 * connection state changes ({@code SUSPENDED}, {@code LOST}, {@code RECONNECTED}) and a leadership
 * lost (a TaskManager's job leader, a JobManager's endpoint). Their log lines start with the time
 * of day ({@code HH:mm:ss.SSS}, the processes' own zone, which is the lab's), so a line counts as
 * since an instant when its time of day is at or after that instant's, or more than twelve hours
 * before it (the day turned).
 */
final class ZooKeeperSymptoms {

  private static final Pattern LINE =
      Pattern.compile("^(\\d{2}:\\d{2}:\\d{2}\\.\\d{3}) +\\w+ +(?:\\[[^]]*] +)?\\S+ - (.*)$");
  private static final Pattern SYMPTOM =
      Pattern.compile("State change: (SUSPENDED|LOST|RECONNECTED)|lost leadership");
  private static final Duration WRAP = Duration.ofHours(12);

  private ZooKeeperSymptoms() {}

  /**
   * The symptoms logged since {@code since} in the Flink processes' logs ({@code flink-*.log}) of
   * {@code logs}, oldest first, each as {@code <process> <time> <message>}; at most {@code limit}.
   */
  static List<String> since(Path logs, Instant since, int limit) {
    LocalTime from = LocalTime.ofInstant(since, ZoneId.systemDefault());
    List<String[]> found = new ArrayList<>();
    if (!Files.isDirectory(logs)) {
      return List.of();
    }
    try (Stream<Path> files = Files.list(logs)) {
      for (Path log :
          files
              .filter(p -> p.getFileName().toString().matches("flink-.*\\.log"))
              .sorted()
              .toList()) {
        String process = log.getFileName().toString().replaceFirst("\\.log$", "");
        try (Stream<String> lines = Files.lines(log, StandardCharsets.UTF_8)) {
          lines.forEach(
              line -> {
                Matcher matcher = LINE.matcher(line);
                if (matcher.matches() && SYMPTOM.matcher(matcher.group(2)).find()) {
                  LocalTime at = parse(matcher.group(1));
                  if (at != null && atOrAfter(at, from)) {
                    found.add(new String[] {matcher.group(1), process, matcher.group(2).strip()});
                  }
                }
              });
        }
      }
    } catch (IOException | UncheckedIOException e) {
      // evidence only: a log that cannot be read adds nothing
      return List.of("the processes' logs under " + logs + " could not be read: " + e);
    }
    return found.stream()
        .sorted(Comparator.comparing((String[] s) -> s[0]))
        .limit(limit)
        .map(s -> s[1] + " " + s[0] + " " + s[2])
        .toList();
  }

  private static @Nullable LocalTime parse(String time) {
    try {
      return LocalTime.parse(time);
    } catch (DateTimeParseException e) {
      return null;
    }
  }

  private static boolean atOrAfter(LocalTime at, LocalTime from) {
    return !at.isBefore(from) || Duration.between(at, from).compareTo(WRAP) > 0;
  }
}
