package io.rollgate.controller.analysis.model;

import io.fabric8.kubernetes.api.model.IntOrString;
import io.rollgate.api.AnalysisRunStatus;
import io.rollgate.api.Measurement;
import io.rollgate.api.Metric;
import io.rollgate.api.MetricProviderConfig;
import io.rollgate.api.MetricResult;
import io.rollgate.api.WebMetric;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** Builders for metrics, results and measurements in tests. */
final class Metrics {

  private Metrics() {}

  static Metric web(String name) {
    Metric m = new Metric();
    m.setName(name);
    MetricProviderConfig p = new MetricProviderConfig();
    WebMetric web = new WebMetric();
    web.setUrl("http://example/{{args.path}}");
    p.setWeb(web);
    m.setProvider(p);
    return m;
  }

  static IntOrString i(int v) {
    return new IntOrString(v);
  }

  static Measurement measurement(String phase, Instant started, Instant finished) {
    Measurement m = new Measurement();
    m.setPhase(phase);
    m.setStartedAt(Times.format(started));
    if (finished != null) {
      m.setFinishedAt(Times.format(finished));
    }
    return m;
  }

  static MetricResult result(String name, Measurement... measurements) {
    MetricResult r = new MetricResult();
    r.setName(name);
    r.setPhase("Running");
    r.setMeasurements(new ArrayList<>(List.of(measurements)));
    for (Measurement m : measurements) {
      if (m.getFinishedAt() != null) {
        Assessment.count(r, m.getPhase());
      }
    }
    return r;
  }

  static AnalysisRunStatus status(Instant startedAt, MetricResult... results) {
    AnalysisRunStatus s = new AnalysisRunStatus();
    s.setStartedAt(Times.format(startedAt));
    s.setMetricResults(new ArrayList<>(List.of(results)));
    return s;
  }
}
