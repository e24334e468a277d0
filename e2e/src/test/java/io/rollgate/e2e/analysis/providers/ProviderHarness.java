package io.rollgate.e2e.analysis.providers;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.rollgate.api.AnalysisRun;
import io.rollgate.api.Metric;
import io.rollgate.controller.analysis.HttpMetricProviders;
import io.rollgate.controller.analysis.provider.MeasurementContext;
import io.rollgate.controller.analysis.provider.MetricProvider;
import io.rollgate.controller.analysis.provider.ProviderResult;
import io.rollgate.controller.analysis.provider.common.MetricHttpClient;
import io.rollgate.controller.analysis.provider.common.ProviderSecrets;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Runs the controller's Prometheus and web providers in the test JVM, the way the AnalysisRun
 * reconciler calls them: a metric (YAML, as in an AnalysisTemplate) becomes a {@link
 * MeasurementContext} and one {@code run} call.
 */
final class ProviderHarness implements AutoCloseable {

  static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

  private final Vertx vertx = Vertx.vertx();
  private final Map<String, MetricProvider> providers;

  ProviderHarness(Map<String, String> env) {
    providers =
        Map.copyOf(
            HttpMetricProviders.create(
                    new MetricHttpClient(vertx),
                    Clock.systemUTC(),
                    env,
                    new ProviderSecrets((ns, name) -> Future.succeededFuture(null), "default"))
                .stream()
                .collect(java.util.stream.Collectors.toMap(MetricProvider::type, p -> p)));
  }

  /** A provider's outcome: the result, or the Error measurement message. */
  record Outcome(ProviderResult result, String error) {
    ProviderResult.Value value() {
      if (error != null) {
        throw new AssertionError("expected a value, got error: " + error);
      }
      return (ProviderResult.Value) result;
    }

    String errorMessage() {
      if (error == null) {
        throw new AssertionError("expected an error, got " + result);
      }
      return error;
    }
  }

  static Metric metric(String yaml) {
    try {
      return YAML.readValue(yaml, Metric.class);
    } catch (java.io.IOException e) {
      throw new IllegalArgumentException(e);
    }
  }

  Outcome measure(String type, String metricYaml) {
    return measure(type, metric(metricYaml), Set.of());
  }

  Outcome measure(String type, Metric metric, Set<String> secrets) {
    MeasurementContext ctx =
        new MeasurementContext(new AnalysisRun(), metric, Instant.now(), secrets);
    try {
      ProviderResult r =
          providers
              .get(type)
              .run(ctx)
              .toCompletionStage()
              .toCompletableFuture()
              .get(60, TimeUnit.SECONDS);
      return new Outcome(r, null);
    } catch (ExecutionException e) {
      return new Outcome(null, ctx.mask(e.getCause().getMessage()));
    } catch (TimeoutException e) {
      throw new AssertionError("provider did not answer within 60 s", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }

  static Duration elapsed(Runnable r) {
    long t = System.nanoTime();
    r.run();
    return Duration.ofNanos(System.nanoTime() - t);
  }

  @Override
  public void close() {
    vertx.close().toCompletionStage().toCompletableFuture().orTimeout(30, TimeUnit.SECONDS).join();
  }

  static List<Double> doubles(Object value) {
    @SuppressWarnings("unchecked")
    List<Double> list = (List<Double>) value;
    return list;
  }
}
