package io.rollgate.controller.metrics;

import io.rollgate.api.AnalysisPhase;
import io.rollgate.api.AnalysisRun;
import io.rollgate.api.Metric;
import io.rollgate.api.MetricProviderConfig;
import io.rollgate.api.MetricResult;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * Writes Argo Rollouts' per-AnalysisRun gauges (docs/compatibility.md §14) in the Prometheus text
 * format, computed from the informer cache at scrape time: {@code analysis_run_info}, {@code
 * analysis_run_phase} (deprecated), {@code analysis_run_metric_type} and {@code
 * analysis_run_metric_phase}. A deleted run's series disappear with it, since nothing is registered
 * per run.
 */
public final class AnalysisRunSeries {

  /** Values of the {@code phase} label. */
  public static final List<String> PHASES =
      List.of(
          AnalysisPhase.PENDING,
          AnalysisPhase.RUNNING,
          AnalysisPhase.SUCCESSFUL,
          AnalysisPhase.FAILED,
          AnalysisPhase.ERROR,
          AnalysisPhase.INCONCLUSIVE);

  private static final Map<String, String> TYPES =
      Map.ofEntries(
          Map.entry("prometheus", "Prometheus"),
          Map.entry("job", "Job"),
          Map.entry("web", "Web"),
          Map.entry("kayenta", "Kayenta"),
          Map.entry("datadog", "Datadog"),
          Map.entry("wavefront", "Wavefront"),
          Map.entry("newRelic", "NewRelic"),
          Map.entry("cloudWatch", "CloudWatch"),
          Map.entry("graphite", "Graphite"),
          Map.entry("influxdb", "Influxdb"),
          Map.entry("skywalking", "SkyWalking"));

  private AnalysisRunSeries() {}

  /**
   * The {@code type} label of a metric: Argo's provider type name ({@code Prometheus}, {@code Job},
   * {@code Web}, {@code Datadog}, ...), the plugin name for {@code provider.plugin}, or {@code
   * Unknown Provider}.
   *
   * @param metric the metric
   * @return the label value
   */
  public static String type(Metric metric) {
    MetricProviderConfig p = metric.getProvider();
    if (p == null) {
      return "Unknown Provider";
    }
    if (p.getPrometheus() != null) {
      return "Prometheus";
    }
    if (p.getJob() != null) {
      return "Job";
    }
    if (p.getWeb() != null) {
      return "Web";
    }
    for (Map.Entry<String, Object> e : p.getAdditionalProperties().entrySet()) {
      if (e.getValue() == null) {
        continue;
      }
      if ("plugin".equals(e.getKey())
          && e.getValue() instanceof Map<?, ?> plugins
          && !plugins.isEmpty()) {
        return String.valueOf(plugins.keySet().iterator().next());
      }
      String t = TYPES.get(e.getKey());
      if (t != null) {
        return t;
      }
    }
    return "Unknown Provider";
  }

  /**
   * Appends the per-run metric families for the given runs.
   *
   * @param out where to append
   * @param runs the AnalysisRuns in the informer cache
   */
  public static void write(StringBuilder out, Collection<AnalysisRun> runs) {
    RolloutSeries.family(out, "analysis_run_info", "Information about analysis run.");
    for (AnalysisRun r : runs) {
      RolloutSeries.sample(
          out, "analysis_run_info", 1, "namespace", ns(r), "name", name(r), "phase", phase(r));
    }
    RolloutSeries.family(
        out,
        "analysis_run_phase",
        "Information on the state of the Analysis Run (DEPRECATED - use analysis_run_info)");
    for (AnalysisRun r : runs) {
      String phase = phase(r);
      for (String p : PHASES) {
        RolloutSeries.sample(
            out,
            "analysis_run_phase",
            p.equals(phase) ? 1 : 0,
            "namespace",
            ns(r),
            "name",
            name(r),
            "phase",
            p);
      }
    }
    RolloutSeries.family(
        out,
        "analysis_run_metric_type",
        "Information on the type of a specific metric in the Analysis Runs.");
    for (AnalysisRun r : runs) {
      for (Metric m : metrics(r)) {
        RolloutSeries.sample(
            out,
            "analysis_run_metric_type",
            1,
            "namespace",
            ns(r),
            "name",
            name(r),
            "metric",
            m.getName(),
            "type",
            type(m));
      }
    }
    RolloutSeries.family(
        out,
        "analysis_run_metric_phase",
        "Information on the duration of a specific metric in the Analysis Run");
    for (AnalysisRun r : runs) {
      for (Metric m : metrics(r)) {
        MetricResult result = result(r, m.getName());
        String phase =
            result == null || result.getPhase() == null || result.getPhase().isEmpty()
                ? AnalysisPhase.PENDING
                : result.getPhase();
        String dryRun = String.valueOf(result != null && Boolean.TRUE.equals(result.getDryRun()));
        for (String p : PHASES) {
          RolloutSeries.sample(
              out,
              "analysis_run_metric_phase",
              p.equals(phase) ? 1 : 0,
              "namespace",
              ns(r),
              "name",
              name(r),
              "metric",
              m.getName(),
              "type",
              type(m),
              "dry_run",
              dryRun,
              "phase",
              p);
        }
      }
    }
  }

  private static List<Metric> metrics(AnalysisRun r) {
    return r.getSpec() == null || r.getSpec().getMetrics() == null
        ? List.of()
        : r.getSpec().getMetrics();
  }

  private static MetricResult result(AnalysisRun r, String metric) {
    if (r.getStatus() == null || r.getStatus().getMetricResults() == null) {
      return null;
    }
    for (MetricResult mr : r.getStatus().getMetricResults()) {
      if (metric.equals(mr.getName())) {
        return mr;
      }
    }
    return null;
  }

  private static String phase(AnalysisRun r) {
    String p = r.getStatus() == null ? null : r.getStatus().getPhase();
    return p == null || p.isEmpty() ? AnalysisPhase.PENDING : p;
  }

  private static String ns(AnalysisRun r) {
    return r.getMetadata().getNamespace();
  }

  private static String name(AnalysisRun r) {
    return r.getMetadata().getName();
  }
}
