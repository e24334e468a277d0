package io.rollgate.controller.analysis.provider;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rollgate.api.AnalysisPhase;
import io.rollgate.api.AnalysisRun;
import io.rollgate.api.JobMetric;
import io.rollgate.api.Measurement;
import io.rollgate.api.Metric;
import io.rollgate.api.MetricProviderConfig;
import io.rollgate.api.WebMetric;
import io.vertx.core.Future;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class MetricProvidersTest {

  @Test
  void namesModelledAndUnknownProviderTypes() {
    Metric metric = new Metric();
    assertEquals(List.of(), MetricProviders.typesOf(metric));
    MetricProviderConfig config = new MetricProviderConfig();
    config.setWeb(new WebMetric());
    config.setJob(new JobMetric());
    config.setAdditionalProperty("datadog", Map.of("interval", "5m"));
    metric.setProvider(config);

    assertEquals(List.of("web", "job", "datadog"), MetricProviders.typesOf(metric));
  }

  @Test
  void looksUpProvidersByTypeAndRejectsDuplicates() {
    MetricProviders providers = MetricProviders.of(List.of(fixed("web"), fixed("job")));

    assertEquals(Set.of("web", "job"), providers.types());
    assertTrue(providers.get("job").isPresent());
    assertTrue(providers.get("datadog").isEmpty());
    assertThrows(
        IllegalArgumentException.class,
        () -> MetricProviders.of(List.of(fixed("web"), fixed("web"))));
  }

  @Test
  void terminatesAsInconclusiveByDefaultKeepingMetadata() {
    Measurement running = new Measurement();
    running.setMetadata(Map.of("job-name", "j"));
    MeasurementContext ctx =
        new MeasurementContext(new AnalysisRun(), new Metric(), Instant.EPOCH, null);

    ProviderResult result = fixed("web").terminate(ctx, running).result();

    assertEquals(
        new ProviderResult.Verdict(
            AnalysisPhase.INCONCLUSIVE, "Metric Terminated", Map.of("job-name", "j")),
        result);
  }

  @Test
  void masksSecretsLongestFirst() {
    MeasurementContext ctx =
        new MeasurementContext(
            new AnalysisRun(), new Metric(), Instant.EPOCH, Set.of("abc", "abcdef"));

    assertEquals("token=***** and *****", ctx.mask("token=abcdef and abc"));
    assertEquals(null, ctx.mask(null));
  }

  private static MetricProvider fixed(String type) {
    return new MetricProvider() {
      @Override
      public String type() {
        return type;
      }

      @Override
      public Future<ProviderResult> run(MeasurementContext ctx) {
        return Future.succeededFuture(new ProviderResult.Value(1.0, "1", null));
      }
    };
  }
}
