package io.rollgate.controller.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rollgate.api.AnalysisRun;
import io.rollgate.api.Metric;
import io.rollgate.api.ModelJson;
import java.util.List;
import org.junit.jupiter.api.Test;

class AnalysisRunSeriesTest {

  @Test
  void providerTypesUseArgosNames() {
    assertEquals(
        "Prometheus",
        AnalysisRunSeries.type(
            ModelJson.fromJson("{\"name\":\"m\",\"provider\":{\"prometheus\":{}}}", Metric.class)));
    assertEquals(
        "Datadog",
        AnalysisRunSeries.type(
            ModelJson.fromJson("{\"name\":\"m\",\"provider\":{\"datadog\":{}}}", Metric.class)));
    assertEquals(
        "argoproj-labs/sample",
        AnalysisRunSeries.type(
            ModelJson.fromJson(
                "{\"name\":\"m\",\"provider\":{\"plugin\":{\"argoproj-labs/sample\":{}}}}",
                Metric.class)));
    assertEquals(
        "Unknown Provider",
        AnalysisRunSeries.type(ModelJson.fromJson("{\"name\":\"m\"}", Metric.class)));
  }

  @Test
  void writesRunAndMetricSeries() {
    AnalysisRun run =
        ModelJson.fromJson(
            "{\"metadata\":{\"name\":\"r\",\"namespace\":\"n\"},"
                + "\"spec\":{\"metrics\":[{\"name\":\"a\",\"provider\":{\"job\":{}}},{\"name\":\"b\",\"provider\":{\"web\":{}}}]},"
                + "\"status\":{\"phase\":\"Running\",\"metricResults\":[{\"name\":\"a\",\"phase\":\"Successful\",\"dryRun\":true}]}}",
            AnalysisRun.class);
    StringBuilder out = new StringBuilder();
    AnalysisRunSeries.write(out, List.of(run));
    String text = out.toString();
    assertTrue(
        text.contains("analysis_run_info{namespace=\"n\",name=\"r\",phase=\"Running\"} 1\n"), text);
    assertTrue(
        text.contains("analysis_run_phase{namespace=\"n\",name=\"r\",phase=\"Pending\"} 0\n"),
        text);
    assertTrue(
        text.contains(
            "analysis_run_metric_type{namespace=\"n\",name=\"r\",metric=\"b\",type=\"Web\"} 1\n"),
        text);
    assertTrue(
        text.contains(
            "analysis_run_metric_phase{namespace=\"n\",name=\"r\",metric=\"a\",type=\"Job\",dry_run=\"true\",phase=\"Successful\"} 1\n"),
        text);
    assertTrue(
        text.contains(
            "analysis_run_metric_phase{namespace=\"n\",name=\"r\",metric=\"b\",type=\"Web\",dry_run=\"false\",phase=\"Pending\"} 1\n"),
        text);
  }
}
