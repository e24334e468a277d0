package io.rollgate.controller.analysis.provider.common;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rollgate.api.Metric;
import io.rollgate.validation.FieldError;
import io.rollgate.validation.MetricProviderValidator;
import io.vertx.core.Future;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Reads the configuration of a provider that the model keeps as an unknown member of {@code
 * metrics[].provider} (for example {@code provider.datadog} or {@code provider.graphite}), after
 * argument substitution: either checked with {@link MetricProviderValidator} (the rules the webhook
 * applies) and bound to the provider's own record ({@link #bind}), or as the member's JSON object
 * with its fields' types checked ({@link #of}, {@link #string}).
 */
public final class ProviderConfigs {

  private static final ObjectMapper JSON =
      new ObjectMapper().configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);

  private ProviderConfigs() {}

  /**
   * Binds a metric's provider member, as a Future for the start of a measurement's chain.
   *
   * @param metric the metric, arguments substituted
   * @param type the member name, for example {@code datadog}
   * @param config the record to bind to
   * @param <T> the record type
   * @return the bound configuration; fails with a {@link MetricProviderException} naming every
   *     invalid field
   */
  public static <T> Future<T> bind(Metric metric, String type, Class<T> config) {
    try {
      return Future.succeededFuture(bindChecked(metric, type, config));
    } catch (MetricProviderException e) {
      return Future.failedFuture(e);
    }
  }

  /**
   * The error messages of a GraphQL answer ({@code errors[].message}), joined with {@code ", "}.
   *
   * @param root the decoded answer, or null
   * @return the messages, or null when the answer has no errors
   */
  public static String graphQlErrors(com.fasterxml.jackson.databind.JsonNode root) {
    if (root == null || !root.path("errors").isArray() || root.path("errors").isEmpty()) {
      return null;
    }
    List<String> messages = new java.util.ArrayList<>();
    root.path("errors").forEach(e -> messages.add(e.path("message").asText("")));
    return String.join(", ", messages);
  }

  /** Checks and binds; throws a {@link MetricProviderException} naming every invalid field. */
  private static <T> T bindChecked(Metric metric, String type, Class<T> config) {
    Object raw =
        metric.getProvider() == null
            ? null
            : metric.getProvider().getAdditionalProperties().get(type);
    if (raw == null) {
      throw new MetricProviderException("metric has no " + type + " provider");
    }
    List<FieldError> errors =
        MetricProviderValidator.validate(type, raw, type, metric.getInterval());
    if (!errors.isEmpty()) {
      throw new MetricProviderException(
          errors.stream().map(FieldError::toString).collect(Collectors.joining("; ")));
    }
    try {
      return JSON.convertValue(raw, config);
    } catch (IllegalArgumentException e) {
      throw new MetricProviderException(type + ": " + e.getMessage(), e);
    }
  }

  /**
   * The JSON object under {@code provider.<type>}.
   *
   * @param metric the metric (arguments substituted)
   * @param type the member name, for example {@code graphite} or {@code cloudWatch}
   * @return the object's fields
   * @throws MetricProviderException {@code metric has no <type> provider} when absent, or when it
   *     is not an object
   */
  @SuppressWarnings("unchecked")
  public static Map<String, Object> of(Metric metric, String type) {
    Object member =
        metric == null || metric.getProvider() == null
            ? null
            : metric.getProvider().getAdditionalProperties().get(type);
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
   * @throws MetricProviderException {@code provider.<type>.<field> must be a string} for another
   *     JSON type
   */
  public static String string(Map<String, Object> config, String type, String field) {
    Object v = config.get(field);
    if (v == null || v instanceof String) {
      return (String) v;
    }
    throw new MetricProviderException("provider." + type + "." + field + " must be a string");
  }
}
