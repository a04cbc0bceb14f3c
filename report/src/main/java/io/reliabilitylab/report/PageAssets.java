package io.reliabilitylab.report;

/** The dashboard's inline style sheet and scripts. */
final class PageAssets {

  private PageAssets() {}

  static final String CSS =
      """
      body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0;color:#1d232a;background:#f6f7f9}
      header.page{padding:16px 28px;border-bottom:4px solid #8a94a0;background:#fff}
      header.page.failed{border-color:#c62828;background:#fdecea}
      header.page.passed{border-color:#2e7d32}
      header.page.inconclusive{border-color:#ef8f00}
      h1{font-size:22px;margin:0 0 6px}
      h2{font-size:18px;margin:24px 0 8px}
      h3{font-size:16px;margin:18px 0 6px}
      h4{font-size:14px;margin:14px 0 4px}
      main{padding:0 28px 28px}
      section.suite,section.run,section.about{background:#fff;border:1px solid #dde1e6;border-radius:6px;padding:4px 18px 14px;margin:18px 0}
      section.run.failed{border-left:8px solid #c62828}
      section.run.passed{border-left:8px solid #2e7d32}
      section.run.inconclusive{border-left:8px solid #ef8f00}
      .badge{display:inline-block;padding:1px 8px;border-radius:10px;font-size:12px;font-weight:700;color:#fff;vertical-align:middle}
      .badge.passed{background:#2e7d32}.badge.failed{background:#c62828}.badge.inconclusive{background:#ef8f00}
      table{border-collapse:collapse;margin:6px 0 10px;font-size:13px;max-width:100%}
      th,td{border:1px solid #dde1e6;padding:3px 7px;text-align:left;vertical-align:top;overflow-wrap:anywhere}
      th{background:#eef1f4}
      tr.failed td{background:#fdecea}tr.inconclusive td{background:#fff6e0}
      pre,code{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:12px}
      pre{background:#f0f2f5;padding:8px;white-space:pre-wrap;word-break:break-all}
      .num{font-variant-numeric:tabular-nums}
      .derived{font-style:italic}
      .hash{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:11px;word-break:break-all}
      figure{margin:8px 0 14px}
      figcaption{font-size:12px;color:#4a535d;margin-bottom:4px}
      svg.chart{display:block;max-width:100%;height:auto;background:#fbfcfd;border:1px solid #e5e8eb}
      svg text{font:11px system-ui,sans-serif;fill:#1d232a}
      svg .tick{fill:#5b6570}
      svg .axis{stroke:#8a94a0;stroke-width:1}
      svg .band.baseline{fill:#90caf9}svg .band.fault{fill:#ef9a9a}svg .band.recovery{fill:#ffcc80}
      svg .band.after{fill:#a5d6a7}svg .band.checks{fill:#ce93d8}
      svg .band-label{font-size:11px}
      svg .commit{stroke:#37474f;stroke-width:1}
      svg .mark{stroke:#37474f;stroke-dasharray:3 2}svg .mark.inject{stroke:#c62828}
      svg .mark.recovered{stroke:#2e7d32}svg .mark-label.inject{fill:#c62828}svg .mark-label.recovered{fill:#2e7d32}
      svg .line{fill:none;stroke-width:2}
      .s0{fill:#1e88e5;stroke:#1e88e5}.s1{fill:#e53935;stroke:#e53935}.s2{fill:#43a047;stroke:#43a047}
      .s3{fill:#fb8c00;stroke:#fb8c00}.s4{fill:#8e24aa;stroke:#8e24aa}.s5{fill:#00897b;stroke:#00897b}
      svg polyline.line{fill:none}
      svg .legend{font-size:12px;stroke:none}
      svg .value{font-size:11px}
      details summary{cursor:pointer;color:#1565c0}
      .note{color:#4a535d;font-size:12px}
      .failed-text{color:#c62828;font-weight:700}
      body.only-failed section.run.passed{display:none}
      footer{padding:8px 28px;color:#5b6570;font-size:12px}
      """;

  /**
   * Runs first, in the head: records window errors, unhandled rejections and {@code console.error}
   * calls, so that a browser test reads them from {@code #console-errors}.
   */
  static final String RECORDER =
      """
      (function () {
        var errors = [];
        window.__labErrors = errors;
        function show() {
          var box = document.getElementById('console-errors');
          if (!box) { return; }
          box.setAttribute('data-count', String(errors.length));
          box.textContent = errors.length === 0 ? 'no console errors' : errors.join('\\n');
        }
        window.__labShowErrors = show;
        window.addEventListener('error', function (event) {
          errors.push('error: ' + (event.message || String(event.error))); show();
        });
        window.addEventListener('unhandledrejection', function (event) {
          errors.push('unhandled rejection: ' + String(event.reason)); show();
        });
        var original = console.error;
        console.error = function () {
          errors.push('console.error: ' + Array.prototype.map.call(arguments, String).join(' '));
          show();
          return original.apply(console, arguments);
        };
      })();
      """;

  /**
   * Runs last: measures every chart's rendered size into {@code #charts-rendered} and wires the
   * "only runs that did not pass" filter.
   */
  static final String MEASURE =
      """
      (function () {
        var charts = document.querySelectorAll('svg.chart');
        var drawn = 0;
        for (var i = 0; i < charts.length; i++) {
          var box = charts[i].getBoundingClientRect();
          var ok = box.width > 0 && box.height > 0;
          charts[i].setAttribute('data-rendered', ok ? 'true' : 'false');
          if (ok) { drawn++; }
        }
        var rendered = document.getElementById('charts-rendered');
        rendered.setAttribute('data-count', String(drawn));
        rendered.setAttribute('data-total', String(charts.length));
        rendered.textContent = drawn + ' of ' + charts.length + ' charts rendered';
        var filter = document.getElementById('failed-only');
        if (filter) {
          filter.addEventListener('change', function () {
            document.body.classList.toggle('only-failed', filter.checked);
          });
        }
        window.__labShowErrors();
      })();
      """;
}
