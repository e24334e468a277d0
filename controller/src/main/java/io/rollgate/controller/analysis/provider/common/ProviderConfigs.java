package io.rollgate.controller.analysis.provider.common;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rollgate.api.Metric;
import io.rollgate.validation.FieldError;
import io.rollgate.validation.MetricProviderValidator;
import io.vertx.core.Future;
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
   * Binds a metric's provider member, as a Future for the start of a measurement's chain.
   *
   * @param metric the metric, arguments substituted
   * @param type the member name, for example {@code datadog}
   * @param config the record to bind to
   * @param <T> the record type
   * @return the bound configuration; fails with a {@link MetricProviderException} naming every invalid field
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
