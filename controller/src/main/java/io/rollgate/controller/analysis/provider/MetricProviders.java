package io.rollgate.controller.analysis.provider;

import io.rollgate.api.Metric;
import io.rollgate.controller.analysis.model.MetricRules;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The metric providers the AnalysisRun reconciler can use, by type. Built once by the controller
 * verticle ({@code ControllerVerticle#metricProviders}), the single place where providers are
 * registered.
 */
public final class MetricProviders {

  private final Map<String, MetricProvider> byType;

  private MetricProviders(Map<String, MetricProvider> byType) {
    this.byType = Map.copyOf(byType);
  }

  /**
   * Creates a registry.
   *
   * @param providers the providers; their {@link MetricProvider#type()} values must be distinct
   * @return the registry
   * @throws IllegalArgumentException if two providers have the same type
   */
  public static MetricProviders of(List<? extends MetricProvider> providers) {
    Map<String, MetricProvider> byType = new LinkedHashMap<>();
    for (MetricProvider provider : providers) {
      if (byType.put(provider.type(), provider) != null) {
        throw new IllegalArgumentException(
            "two metric providers of type '" + provider.type() + "'");
      }
    }
    return new MetricProviders(byType);
  }

  /**
   * Looks up the provider of a type.
   *
   * @param type for example {@code "job"}
   * @return the provider, or empty if none is registered for that type
   */
  public Optional<MetricProvider> get(String type) {
    return Optional.ofNullable(byType.get(type));
  }

  /**
   * Lists the registered types.
   *
   * @return the types, for example {@code [job, prometheus, web]}
   */
  public Set<String> types() {
    return byType.keySet();
  }

  /**
   * Names the provider types a metric sets under {@code provider}: the modelled {@code prometheus},
   * {@code web}, {@code job}, and any other member kept as an unknown property (for example {@code
   * datadog} or {@code plugin}).
   *
   * @param metric the metric
   * @return the types in declaration order; empty if the metric has no provider
   */
  public static List<String> typesOf(Metric metric) {
    return MetricRules.providerTypes(metric);
  }
}
