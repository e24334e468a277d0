package io.rollgate.controller.analysis.provider.common;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rollgate.api.Metric;
import io.rollgate.validation.FieldError;
import io.rollgate.validation.MetricProviderValidator;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Reads the configuration of a provider that the wire model keeps as plain JSON under {@code metrics[].provider}
 * (for example {@code datadog}), after argument substitution: checks it with {@link MetricProviderValidator}, the
 * rules the webhook applies, then binds it to the provider's own record.
 */
public final class ProviderConfigs {

  private static final ObjectMapper JSON =
      new ObjectMapper().configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);

  private ProviderConfigs() {}

  /**
   * Binds a metric's provider member.
   *
   * @param metric the metric, arguments substituted
   * @param type the member name, for example {@code datadog}
   * @param config the record to bind to (Jackson field names as Argo's JSON names)
   * @param <T> the record type
   * @return the bound configuration
   * @throws MetricProviderException naming every invalid field ({@code datadog.query: Required value: ...}), or when
   *     the metric has no such member
   */
  public static <T> T read(Metric metric, String type, Class<T> config) {
    Object raw = metric.getProvider() == null ? null : metric.getProvider().getAdditionalProperties().get(type);
    if (raw == null) {
      throw new MetricProviderException("metric has no " + type + " provider");
    }
    List<FieldError> errors = MetricProviderValidator.validate(type, raw, type, metric.getInterval());
    if (!errors.isEmpty()) {
      throw new MetricProviderException(errors.stream().map(FieldError::toString).collect(Collectors.joining("; ")));
    }
    try {
      return JSON.convertValue(raw, config);
    } catch (IllegalArgumentException e) {
      throw new MetricProviderException(type + ": " + e.getMessage(), e);
    }
  }
}
