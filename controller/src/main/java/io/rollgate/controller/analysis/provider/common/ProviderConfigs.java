package io.rollgate.controller.analysis.provider.common;

import io.rollgate.api.Metric;
import java.util.Map;

/**
 * Reads the configuration of a provider that the model keeps as an unknown member of {@code metrics[].provider} (for
 * example {@code provider.graphite}): the member's JSON object as a map, and its fields with their types checked.
 */
public final class ProviderConfigs {

  private ProviderConfigs() {}

  /**
   * The JSON object under {@code provider.<type>}.
   *
   * @param metric the metric (arguments substituted)
   * @param type the member name, for example {@code graphite} or {@code cloudWatch}
   * @return the object's fields
   * @throws MetricProviderException {@code metric has no <type> provider} when absent, or when it is not an object
   */
  @SuppressWarnings("unchecked")
  public static Map<String, Object> of(Metric metric, String type) {
    Object member =
        metric == null || metric.getProvider() == null ? null : metric.getProvider().getAdditionalProperties().get(type);
    if (member == null) {
      throw new MetricProviderException("metric has no " + type + " provider");
    }
    if (!(member instanceof Map)) {
      throw new MetricProviderException("provider." + type + " must be an object");
    }
    return (Map<String, Object>) member;
  }

  /**
   * A string field of a provider's configuration.
   *
   * @param config the object from {@link #of}
   * @param type the provider member name, for messages
   * @param field the field name
   * @return the text, or {@code null} when the field is absent or null
   * @throws MetricProviderException {@code provider.<type>.<field> must be a string} for another JSON type
   */
  public static String string(Map<String, Object> config, String type, String field) {
    Object v = config.get(field);
    if (v == null || v instanceof String) {
      return (String) v;
    }
    throw new MetricProviderException("provider." + type + "." + field + " must be a string");
  }
}
