package io.reliabilitylab.report;

import static io.reliabilitylab.report.Html.escape;

import java.util.List;
import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * The dashboard's charts as inline SVG, drawn here rather than by a script library so that the page
 * needs nothing from the network. Each chart is an {@code <svg class="chart">} with a title; a
 * value label taken from a JSON document carries its pointer, like every other number on the page.
 */
final class Charts {

  private static final int WIDTH = 960;
  private static final int LABEL_WIDTH = 280;
  private static final int ROW = 22;
  private static final int SERIES_COLOURS = 6;

  private Charts() {}

  /** A horizontal bar; {@code pointer} names the JSON value it shows, null for a derived one. */
  record Bar(String label, long value, @Nullable String pointer) {}

  /** A sample of a line: x in milliseconds since the start, y the value. */
  record Point(long atMs, long value, @Nullable String pointer) {}

  /** A named series of samples. */
  record Line(String name, List<Point> points) {}

  /** A span of a timeline, e.g. the baseline or a fault until recovery. */
  record Band(String label, long fromMs, long toMs, String kind) {}

  /** An instant of a timeline, e.g. the injection or the first commit after a fault. */
  record Mark(String label, long atMs, String kind) {}

  /** Horizontal bars, one per row, each with its value in {@code unit} after it. */
  static String bars(String chart, String title, Html.Source source, List<Bar> bars, String unit) {
    long max =
        Math.max(1, bars.stream().mapToLong(bar -> Math.max(0, bar.value())).max().orElse(1));
    int height = bars.size() * ROW + 10;
    int barArea = WIDTH - LABEL_WIDTH - 130;
    StringBuilder svg = open(chart, title, height);
    for (int i = 0; i < bars.size(); i++) {
      Bar bar = bars.get(i);
      int y = 5 + i * ROW;
      long length = Math.max(1, Math.round((double) Math.max(0, bar.value()) * barArea / max));
      svg.append(
              "<text class=\"label\" x=\"%d\" y=\"%d\" text-anchor=\"end\">%s</text>"
                  .formatted(LABEL_WIDTH - 8, y + 15, escape(shorten(bar.label(), 44))))
          .append(
              "<rect class=\"bar s%d\" x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\"/>"
                  .formatted(i % SERIES_COLOURS, LABEL_WIDTH, y + 3, length, ROW - 6))
          .append(
              valueText(
                  source,
                  bar.pointer(),
                  bar.value(),
                  LABEL_WIDTH + (int) length + 6,
                  y + 15,
                  unit));
    }
    return svg.append("</svg>").toString();
  }

  /** Lines over time, x in seconds since the start, with the maximum of y marked on its axis. */
  static String lines(String chart, String title, Html.Source source, List<Line> lines) {
    int height = 230;
    int left = 80;
    int right = WIDTH - 20;
    int top = 28;
    int bottom = height - 30;
    long maxX =
        Math.max(
            1,
            lines.stream()
                .flatMap(line -> line.points().stream())
                .mapToLong(Point::atMs)
                .max()
                .orElse(1));
    long maxY =
        Math.max(
            1,
            lines.stream()
                .flatMap(line -> line.points().stream())
                .mapToLong(Point::value)
                .max()
                .orElse(1));
    StringBuilder svg = open(chart, title, height);
    svg.append(axes(left, right, top, bottom, maxX))
        .append(
            "<text class=\"tick\" x=\"%d\" y=\"%d\" text-anchor=\"end\">%d</text>"
                .formatted(left - 6, top + 4, maxY))
        .append(
            "<text class=\"tick\" x=\"%d\" y=\"%d\" text-anchor=\"end\">0</text>"
                .formatted(left - 6, bottom + 4));
    for (int s = 0; s < lines.size(); s++) {
      Line line = lines.get(s);
      String colour = "s" + (s % SERIES_COLOURS);
      svg.append(
          "<text class=\"legend %s\" x=\"%d\" y=\"16\">&#9632; %s</text>"
              .formatted(colour, left + s * 220, escape(shorten(line.name(), 30))));
      StringBuilder path = new StringBuilder();
      StringBuilder dots = new StringBuilder();
      for (Point point : line.points()) {
        double x = left + (double) point.atMs() * (right - left) / maxX;
        double y = bottom - (double) point.value() * (bottom - top) / maxY;
        path.append(path.length() == 0 ? "" : " ").append(fixed(x)).append(',').append(fixed(y));
        dots.append(
            "<circle class=\"dot %s\" cx=\"%s\" cy=\"%s\" r=\"3\"><title>%s</title></circle>"
                .formatted(
                    colour,
                    fixed(x),
                    fixed(y),
                    escape(line.name() + " " + point.value() + " at " + point.atMs() + " ms")));
      }
      svg.append("<polyline class=\"line %s\" points=\"%s\"/>".formatted(colour, path))
          .append(dots);
    }
    return svg.append("</svg>").toString();
  }

  /**
   * A run's timeline: bands for its phases, marks for the instants that matter, and a tick for
   * every sink commit.
   */
  static String timeline(
      String title, long totalMs, List<Band> bands, List<Mark> marks, List<Long> commitsMs) {
    int left = 20;
    int right = WIDTH - 20;
    int rows = Math.max(1, Math.min(marks.size(), 4));
    int height = 96 + rows * 16;
    long span = Math.max(1, totalMs);
    StringBuilder svg = open("timeline", title, height);
    for (Band band : bands) {
      double x = scale(band.fromMs(), span, left, right);
      double width = Math.max(2, scale(band.toMs(), span, left, right) - x);
      svg.append(
          "<rect class=\"band %s\" x=\"%s\" y=\"8\" width=\"%s\" height=\"26\"><title>%s</title></rect>"
              .formatted(
                  band.kind(),
                  fixed(x),
                  fixed(width),
                  escape(band.label() + ": " + (band.toMs() - band.fromMs()) + " ms")));
      if (width > 60) {
        svg.append(
            "<text class=\"band-label\" x=\"%s\" y=\"26\">%s</text>"
                .formatted(fixed(x + 4), escape(shorten(band.label(), (int) (width / 7)))));
      }
    }
    for (long commit : commitsMs) {
      double x = scale(commit, span, left, right);
      svg.append(
          "<line class=\"commit\" x1=\"%s\" x2=\"%s\" y1=\"38\" y2=\"48\"/>"
              .formatted(fixed(x), fixed(x)));
    }
    svg.append(
        "<line class=\"axis\" x1=\"%d\" x2=\"%d\" y1=\"52\" y2=\"52\"/>".formatted(left, right));
    svg.append("<text class=\"tick\" x=\"%d\" y=\"66\">0 s</text>".formatted(left))
        .append(
            "<text class=\"tick\" x=\"%d\" y=\"66\" text-anchor=\"end\">%s s</text>"
                .formatted(right, seconds(totalMs)));
    for (int i = 0; i < marks.size(); i++) {
      Mark mark = marks.get(i);
      double x = scale(mark.atMs(), span, left, right);
      int labelY = 82 + (i % rows) * 16;
      boolean leftOfMark = x > WIDTH * 0.7;
      svg.append(
              "<line class=\"mark %s\" x1=\"%s\" x2=\"%s\" y1=\"4\" y2=\"%d\"/>"
                  .formatted(mark.kind(), fixed(x), fixed(x), labelY - 10))
          .append(
              "<text class=\"mark-label %s\" x=\"%s\" y=\"%d\" text-anchor=\"%s\">%s</text>"
                  .formatted(
                      mark.kind(),
                      fixed(x),
                      labelY,
                      leftOfMark ? "end" : "start",
                      escape(mark.label() + " +" + seconds(mark.atMs()) + " s")));
    }
    return svg.append("</svg>").toString();
  }

  private static StringBuilder open(String chart, String title, int height) {
    return new StringBuilder()
        .append(
            "<svg class=\"chart\" data-chart=\"%s\" role=\"img\" viewBox=\"0 0 %d %d\" width=\"%d\" height=\"%d\" preserveAspectRatio=\"xMinYMin meet\">"
                .formatted(escape(chart), WIDTH, height, WIDTH, height))
        .append("<title>")
        .append(escape(title))
        .append("</title>");
  }

  private static String axes(int left, int right, int top, int bottom, long maxX) {
    return ("<line class=\"axis\" x1=\"%d\" x2=\"%d\" y1=\"%d\" y2=\"%d\"/>"
            + "<line class=\"axis\" x1=\"%d\" x2=\"%d\" y1=\"%d\" y2=\"%d\"/>"
            + "<text class=\"tick\" x=\"%d\" y=\"%d\">0 s</text>"
            + "<text class=\"tick\" x=\"%d\" y=\"%d\" text-anchor=\"end\">%s s</text>")
        .formatted(
            left,
            right,
            bottom,
            bottom,
            left,
            left,
            top,
            bottom,
            left,
            bottom + 16,
            right,
            bottom + 16,
            seconds(maxX));
  }

  private static String valueText(
      Html.Source source, @Nullable String pointer, long value, int x, int y, String unit) {
    String number =
        pointer == null
            ? "<tspan class=\"derived\">" + value + "</tspan>"
            : "<tspan class=\"num\" "
                + source.attributes()
                + " data-field=\""
                + escape(pointer)
                + "\">"
                + value
                + "</tspan>";
    return "<text class=\"value\" x=\"%d\" y=\"%d\">%s %s</text>"
        .formatted(x, y, number, escape(unit));
  }

  private static double scale(long value, long span, int from, int to) {
    return from + (double) Math.max(0, Math.min(value, span)) * (to - from) / span;
  }

  private static String fixed(double value) {
    return String.format(Locale.ROOT, "%.1f", value);
  }

  static String seconds(long millis) {
    return String.format(Locale.ROOT, "%.1f", millis / 1000.0);
  }

  private static String shorten(String text, int max) {
    int limit = Math.max(4, max);
    return text.length() <= limit ? text : text.substring(0, limit - 1) + "…";
  }
}
